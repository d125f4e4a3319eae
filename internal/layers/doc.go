// Package layers keeps the module's floors honest: its test fails when a
// non-test file imports a package on its own floor's level or above
// (cmd → bench → releases/lifelong/prediction → methods → envs → datasets →
// llm/reports → metrics/runlog → internal), so shared pieces stay low.
package layers
