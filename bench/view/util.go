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
		return nil, fmt.Errorf("view: listen on %s: %w", addr, err)
	}
	return ln, nil
}
