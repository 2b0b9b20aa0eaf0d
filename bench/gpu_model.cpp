// The gpu engine's device model (src/gpu/device_model.hpp) for one N: the run's batches replayed
// on this thread, what they would cost a card, and the predicted wall time. Usage:
//   gpu_model N [--card NAME] [--seconds S] [--batches B] [--store-by-passes] [--device-built]
// --card: one of the model's cards (default H100); --seconds, --batches: replay about S seconds
// or B batches, spread over the run, and scale (default: every batch); --store-by-passes: the
// stored side chosen by its passes alone (SplitRule::store_by_price false), for an A/B;
// --device-built: the engine's device-built path replayed (recipes sent, halves built on the
// device: keys, bytes and host time are that path's), rather than the keys-fed one.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "gpu/device_model.hpp"
#include "nqueens/oeis.hpp"

int main(int argc, char** argv) {
  using namespace nqueens::gpu;
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: gpu_model N [--card NAME] [--seconds S] [--batches B] [--store-by-passes] "
                 "[--device-built]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  std::string card_name = "H100";
  Replay replay;
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--store-by-passes") == 0)
      replay.rule.store_by_price = false;
    else if (std::strcmp(argv[i], "--device-built") == 0)
      replay.device_built = true;
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
    std::printf("%s path: bytes to the device %.4g, to the host %.4g\n",
                replay.device_built ? "device-built" : "keys-fed", w.bytes_to_device, w.bytes_to_host);
    if (replay.device_built) {
      std::printf("build passes' candidates %.4g; of the bytes to the device, slices' entries %.4g\n",
                  w.build_candidates, w.entry_bytes);
      const bool specs = w.group_index_bytes > 0;  // the card holds the table and its group index
      std::printf(
          "bytes by kind: to the device, slices %.4g, group index %.4g, %s %.4g, sides %.4g, row sets %.4g; "
          "to the host, plan totals %.4g, row sets' pairs and halves %.4g\n",
          w.entry_bytes, w.group_index_bytes, specs ? "side descriptions" : "pairings",
          specs ? w.spec_bytes : w.pairing_bytes, w.side_bytes, w.row_set_bytes, w.total_bytes, w.result_bytes);
      std::printf("plan kernels: warp instructions %.4g, longest threads %.4g instructions: %.4g s of the device's\n",
                  w.plan_warp_instructions, w.plan_lone_instructions, run.plan_seconds);
    }
    std::printf("host thread seconds %.4g here (%.3g ns a key)\n", w.host_seconds, 1e9 * w.host_seconds / w.keys);
    std::printf("predicted: device %.4g s, transfers %.4g s, host %.4g s on %d threads: %.4g s, bound by the %s\n",
                run.device_seconds, run.transfer_seconds, run.host_seconds, card->host_threads, run.seconds,
                run.bound_by.c_str());
    // The design where the device builds what it matches, estimated from the keys-fed replay
    // (DeviceWork::Built); a device-built replay prices that path itself, above.
    const DeviceWork::Built& b = w.built;
    if (!replay.device_built) {
      std::printf(
          "device-built: sides %.4g, candidates %.4g, recipes %.4g bytes, quarter table %.4g bytes, "
          "to the host %.4g bytes, host thread seconds %.4g here\n",
          b.sides, b.candidates, b.recipe_bytes, b.table_bytes, b.bytes_to_host, b.host_seconds);
      std::printf(
          "device-built predicted: build %.4g s + matching %.4g s = device %.4g s, transfers %.4g s, "
          "host %.4g s: %.4g s, bound by the %s\n",
          run.built.build_seconds, run.device_seconds, run.built.device_seconds, run.built.transfer_seconds,
          run.built.host_seconds, run.built.seconds, run.built.bound_by.c_str());
    }
    if (const auto solutions = nqueens::oeis_total(n); solutions && *solutions > 0) {
      const double q = static_cast<double>(*solutions);
      const double keys_fed = w.bytes_to_device + w.bytes_to_host;
      const double built = b.table_bytes + b.recipe_bytes + b.bytes_to_host;
      const double compact = b.table_bytes + b.index_bytes + b.compact_bytes + b.bytes_to_host;
      if (replay.device_built) {
        std::printf("per solution, as replayed (device-built): bytes over the bus %.3g, host thread time %.3g ns\n",
                    keys_fed / q, 1e9 * w.host_seconds / q);
      } else {
        std::printf(
            "per solution: bytes over the bus %.3g keys fed, %.3g device-built (%.0fx fewer), %.3g with "
            "compact row sets (%.0fx fewer); host thread time %.3g ns keys fed, %.3g ns device-built (%.0fx "
            "less)\n",
            keys_fed / q, built / q, keys_fed / built, compact / q, keys_fed / compact, 1e9 * w.host_seconds / q,
            1e9 * b.host_seconds / q, w.host_seconds / b.host_seconds);
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gpu_model: %s\n", error.what());
    return 2;
  }
  return 0;
}
