// The gpu engine's device model (src/gpu/device_model.hpp) for one N: the run's batches replayed
// on this thread, what they would cost a card, and the predicted wall time. Usage:
//   gpu_model N [--card NAME] [--seconds S] [--batches B] [--store-by-passes]
// --card: one of the model's cards (default H100); --seconds, --batches: replay about S seconds
// or B batches, spread over the run, and scale (default: every batch); --store-by-passes: the
// stored side chosen by its passes alone (SplitRule::store_by_price false), for an A/B.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "gpu/device_model.hpp"

int main(int argc, char** argv) {
  using namespace nqueens::gpu;
  if (argc < 2) {
    std::fprintf(stderr, "usage: gpu_model N [--card NAME] [--seconds S] [--batches B] [--store-by-passes]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  std::string card_name = "H100";
  Replay replay;
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--store-by-passes") == 0) replay.rule.store_by_price = false;
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--card") == 0) card_name = argv[i + 1];
    if (std::strcmp(argv[i], "--seconds") == 0) replay.most_seconds = std::atof(argv[i + 1]);
    if (std::strcmp(argv[i], "--batches") == 0) replay.most_batches = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const CardModel* card = find_card(card_name);
  if (!card) {
    std::fprintf(stderr, "gpu_model: unknown card '%s'; known:", card_name.c_str());
    for (const CardModel& known : known_cards())
      std::fprintf(stderr, " '%.*s'", int(known.name.size()), known.name.data());
    std::fprintf(stderr, "\n");
    return 2;
  }
  try {
    const ModelledRun run = modelled_run(n, *card, replay);
    const DeviceWork& w = run.work;
    std::printf("N = %d on %s (%.*s): %zu of %zu batches replayed, %.1f %% of the estimated cost\n", n,
                run.card.c_str(), int(card->source.size()), card->source.data(), run.batches_replayed,
                run.batches_total, 100 * run.share_replayed);
    std::printf("keys %.4g, tables %.4g, passes %.4g, pair tests %.4g, batches %.4g\n", w.keys, w.tables, w.passes,
                w.pair_tests, w.batches);
    std::printf("bytes to the device %.4g, to the host %.4g\n", w.bytes_to_device, w.bytes_to_host);
    std::printf("host thread seconds %.4g here (%.3g ns a key)\n", w.host_seconds, 1e9 * w.host_seconds / w.keys);
    std::printf("predicted: device %.4g s, transfers %.4g s, host %.4g s on %d threads: %.4g s, bound by the %s\n",
                run.device_seconds, run.transfer_seconds, run.host_seconds, card->host_threads, run.seconds,
                run.bound_by.c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gpu_model: %s\n", error.what());
    return 2;
  }
  return 0;
}
