"""The figures the docs repeat, checked against the data they come from (scripts/dev/doc-figures.py,
the docs test docs_figures): common (text and constants), fixed (the rules of figures of one fixed
form), data (the figures docs/data holds, each under a name), figures (the figures of prose),
truths (what a figure of prose may be), ties (the ledger that names the datum each one states)."""
