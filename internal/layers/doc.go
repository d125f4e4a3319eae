// Package layers keeps the module's shape honest. Its tests fail when a
// non-test file imports a package on its own floor or above (cmd → bench →
// releasepacks/lifelong/behaviorrun → accounting → methods → envs → datasets →
// llm/reports → metrics/runrecord → internal), so shared pieces stay low, and
// when a package has no doc comment saying what it is for.
package layers
