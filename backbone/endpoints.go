package backbone

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// EnvBaseURLsFile names a file listing endpoints, one base URL per line
// (blank lines and '#' comments ignored): a cluster job writes it, e.g. one
// vLLM server per node of the job, and every shard reads it.
const EnvBaseURLsFile = "OPENAI_BASE_URLS_FILE"

// WithEndpointsFile returns a getenv whose OPENAI_BASE_URL also lists the
// endpoints of $OPENAI_BASE_URLS_FILE (after any set directly).
func WithEndpointsFile(getenv func(string) string) (func(string) string, error) {
	path := strings.TrimSpace(getenv(EnvBaseURLsFile))
	if path == "" {
		return getenv, nil
	}
	urls, err := readEndpointsFile(path)
	if err != nil {
		return nil, err
	}
	joined := strings.Join(urls, ",")
	if direct := strings.TrimSpace(getenv(EnvBaseURL)); direct != "" {
		joined = direct + "," + joined
	}
	return func(k string) string {
		if k == EnvBaseURL {
			return joined
		}
		return getenv(k)
	}, nil
}

func readEndpointsFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvBaseURLsFile, err)
	}
	var urls []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = strings.TrimSpace(s[:i])
		}
		if s == "" {
			continue
		}
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%s:%d: %q is not an absolute URL", path, line, s)
		}
		urls = append(urls, s)
	}
	if len(urls) == 0 {
		return nil, fmt.Errorf("%s (%s) lists no endpoint", path, EnvBaseURLsFile)
	}
	return urls, nil
}
