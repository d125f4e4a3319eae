package external

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// passed are the variables of the harness's environment a child inherits;
// prefixes end in "*". Nothing else reaches it: the user's API keys
// (OPENAI_API_KEY and every other) stay with the harness.
var passed = []string{"PATH", "HOME", "LANG", "LC_*", "TMPDIR", "PYTHON*", "TZ", "USER"}

func isPassed(name string) bool {
	for _, p := range passed {
		if strings.HasSuffix(p, "*") && strings.HasPrefix(name, strings.TrimSuffix(p, "*")) || name == p {
			return true
		}
	}
	return false
}

// GatewayEnv is the hook through which the run's model gateway hands a
// child its variables (OPENAI_BASE_URL and OPENAI_API_KEY of its loopback
// endpoint, and the names other libraries read); they are added last, over
// the config's env. nil: no gateway, and the child is given no endpoint.
type GatewayEnv func() map[string]string

// childEnv is a child's whole environment: the passed variables of the
// harness's environ, then the config's env, then the gateway's.
func childEnv(environ []string, configured map[string]string, gateway GatewayEnv) []string {
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && isPassed(k) {
			vars[k] = v
		}
	}
	for k, v := range configured {
		vars[k] = v
	}
	if gateway != nil {
		for k, v := range gateway() {
			vars[k] = v
		}
	}
	out := make([]string, 0, len(vars))
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		out = append(out, k+"="+vars[k])
	}
	return out
}

// checkEnv refuses config env entries that would carry a secret: keys are
// read from the harness's environment only and never handed to a method.
func checkEnv(method string, env map[string]string) error {
	for k := range env {
		u := strings.ToUpper(k)
		if strings.HasSuffix(u, "_API_KEY") || strings.HasSuffix(u, "_TOKEN") || strings.HasSuffix(u, "_SECRET") {
			return fmt.Errorf("method %s: env %s: API keys and tokens never go to an external method "+
				"(the run's model gateway hands it a key of its own)", method, k)
		}
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("method %s: env %q is not a variable name", method, k)
		}
	}
	return nil
}
