// Package omnibehavior reads the OmniBehavior traces (Kuaishou video, live,
// ad, e-commerce, search and customer-service records of 200 users,
// 2025-09-01 … 11-30) and turns them into PraMem's behaviour-prediction
// instances, reproducing the reference code (PraMem's
// prepare_experiment_data.py and prompt_builder.py) exactly:
//
//   - Load reads the release layout (per-user JSON files in en/ or zh/), a
//     single users file, or PraMem's prebuilt experiment_data.json. Scene
//     aliases fold to the canonical Chinese names, numbers keep their
//     int/float type, numeric strings and "194秒" are accepted; a bad file
//     is reported with its JSON path without losing the other users.
//   - ShouldFilter, HasSufficientContext and HighValue are the reference's
//     record predicates; Labels its 18 binary, 3 continuous and 2 text
//     questions; ContextText and ResultText its Chinese renderings (Python
//     truthiness, number printing and code-point slicing included).
//   - Prepare selects users and samples 30 test actions each with the
//     seeded balanced sampler; BuildInstances expands them into
//     behavior.Instance values with rolling histories.
//   - Inspect and ComputeStats describe records for `bench data inspect`.
package omnibehavior
