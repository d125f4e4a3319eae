package view

import (
	"fmt"
	"net"
	"net/url"
)

func urlQuery(s string) string { return url.QueryEscape(s) }

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		// No "view:" prefix: the CLI names the verb already.
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}
