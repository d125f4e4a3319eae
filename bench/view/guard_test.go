package view

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// serve runs s on a loopback port until the test ends and returns its
// address (host:port).
func serve(t *testing.T, s *Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", s, func(u string) {
			pu, _ := url.Parse(u)
			addrc <- pu.Host
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case a := <-addrc:
		return a
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	return ""
}

// getHost sends GET target to addr with the given Host header.
func getHost(t *testing.T, addr, host, target string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", "http://"+addr+target, nil)
	must(t, err)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s (Host %s): %v", target, host, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A page elsewhere that resolves its own name to 127.0.0.1 (DNS rebinding)
// makes the browser send its own Host header: refused. The viewer's own
// addresses, at its port, are answered.
func TestViewAnswersItsOwnHostOnly(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), 9)
	s, err := NewServer(root, nil)
	must(t, err)
	s.AllowHost("Viewer.LAN")
	addr := serve(t, s)
	_, port, _ := net.SplitHostPort(addr)
	other := "1"
	if port == "1" {
		other = "2"
	}
	tests := []struct {
		host string
		code int
	}{
		{"evil.attacker.example", http.StatusMisdirectedRequest},
		{"evil.attacker.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example:" + port, http.StatusMisdirectedRequest},
		{"localhost.:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1:" + other, http.StatusMisdirectedRequest},
		{"127.0.0.1", http.StatusMisdirectedRequest}, // port 80 is not ours
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST:" + port, http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
		{"viewer.lan:" + port, http.StatusOK}, // --allow-host
		{"viewer.lan:" + other, http.StatusMisdirectedRequest},
	}
	for _, tt := range tests {
		code, body := getHost(t, addr, tt.host, "/run?r=demo")
		if code != tt.code {
			t.Errorf("Host %q: %d, want %d", tt.host, code, tt.code)
		}
		if tt.code != http.StatusOK && strings.Contains(body, "manifest") {
			t.Errorf("Host %q: the refusal carries the page", tt.host)
		}
	}
}

// Links inside a run that lead out of it are not followed, by any page:
// a report file, a report table, a memory folder, a checkpoint folder, a
// run folder, a config, a samples log.
func TestViewRefusesLinksOutOfTheRoot(t *testing.T) {
	outside := t.TempDir()
	secret := "TOP-SECRET-" + filepath.Base(outside)
	must(t, os.WriteFile(filepath.Join(outside, "secret.md"), []byte("| a |\n|---|\n| "+secret+" |\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(outside, "mem"), 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "mem", "u001.json"), []byte(`{"text":"`+secret+`"}`), 0o644))
	must(t, os.MkdirAll(filepath.Join(outside, "ckpt"), 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "ckpt", "pramem-x-round-000.json"), []byte(`{"round_idx":0,"memory_snapshot_after":{"user_exp":["`+secret+`"]}}`), 0o644))
	otherRun := filepath.Join(outside, "run")
	writeRun(t, otherRun, 3)
	must(t, os.WriteFile(filepath.Join(otherRun, "config.yaml"), []byte(secret), 0o644))

	root := t.TempDir()
	demo := filepath.Join(root, "demo")
	writeRun(t, demo, 9)
	link := func(target, name string) { must(t, os.Symlink(target, filepath.Join(demo, name))) }
	link(filepath.Join(outside, "secret.md"), "report/leak.md")
	must(t, os.WriteFile(filepath.Join(demo, "report", "index.md"), []byte("- [leak.md](leak.md)\n- [table.md](table.md)\n"), 0o644))
	link(filepath.Join(outside, "mem"), "memory/evil")
	must(t, os.RemoveAll(filepath.Join(demo, "checkpoints", "u001")))
	link(filepath.Join(outside, "ckpt"), "checkpoints/u001")
	must(t, os.Symlink(otherRun, filepath.Join(root, "linked")))
	// A second run whose config and samples log are links out.
	cfgRun := filepath.Join(root, "cfg")
	writeRun(t, cfgRun, 3)
	must(t, os.Remove(filepath.Join(cfgRun, "config.yaml")))
	must(t, os.Symlink(filepath.Join(otherRun, "config.yaml"), filepath.Join(cfgRun, "config.yaml")))

	s, err := NewServer(root, nil)
	must(t, err)
	h := s.Handler()
	for _, target := range []string{
		"/file?r=demo&f=report/leak.md",
		"/table?r=demo&f=leak.md",
		"/memory?r=demo&method=evil&user=u001",
		"/memory?r=demo&method=pramem&user=u001",
		"/run?r=demo",
		"/run?r=linked",
		"/samples?r=linked",
		"/run?r=cfg",
		"/",
	} {
		code, body := get(t, h, target)
		if strings.Contains(body, secret) {
			t.Errorf("GET %s (%d) serves a file outside the root:\n%.300s", target, code, body)
		}
	}
	for _, target := range []string{"/file?r=demo&f=report/leak.md", "/table?r=demo&f=leak.md", "/memory?r=demo&method=evil&user=u001", "/run?r=linked"} {
		if code, _ := get(t, h, target); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, code)
		}
	}
	// What is inside the run still shows.
	if code, body := get(t, h, "/memory?r=demo&method=pramem&user=u001"); code != 200 || !strings.Contains(body, "drama") {
		t.Errorf("own memory page: %d\n%.300s", code, body)
	}
	// The static report does not copy an outside file in either: it
	// fails naming the link, or leaves the file out.
	if _, err := WriteStatic(context.Background(), demo); err != nil && !strings.Contains(err.Error(), "leak.md") {
		t.Fatal(err)
	}
	filepath.Walk(filepath.Join(demo, "report"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && strings.HasSuffix(p, ".html") {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) {
				t.Errorf("static page %s holds a file from outside the run", p)
			}
		}
		return nil
	})
}

// Connections that never finish their headers, and idle keep-alive ones,
// are closed by the server.
func TestViewDropsStalledConnections(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), 3)
	s, err := NewServer(root, nil)
	must(t, err)
	s.headerTimeout, s.readTimeout, s.idleTimeout = 200*time.Millisecond, time.Second, 300*time.Millisecond
	addr := serve(t, s)

	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n+1)
	for range n {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			io.WriteString(c, "GET /run?r=demo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") // never ends
			errs <- closedWithin(c, 10*time.Second)
		})
	}
	wg.Go(func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			errs <- err
			return
		}
		defer c.Close()
		io.WriteString(c, "GET /assets/filter.js HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			errs <- err
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		errs <- closedWithin(c, 10*time.Second) // then idle, kept alive
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// closedWithin waits for the peer to close c; an error when it stays open.
func closedWithin(c net.Conn, d time.Duration) error {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return errors.New("connection still open after " + d.String())
	}
	return nil
}

func TestViewWarnsOnAnOpenAddress(t *testing.T) {
	if w := exposureWarning(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "runs"); w != "" {
		t.Errorf("loopback address warned: %q", w)
	}
	for _, ip := range []net.IP{net.IPv4zero, net.IPv6unspecified, net.IPv4(192, 168, 1, 5)} {
		w := exposureWarning(&net.TCPAddr{IP: ip, Port: 8080}, "runs")
		if !strings.HasPrefix(w, "WARNING") || !strings.Contains(w, "127.0.0.1") {
			t.Errorf("%s: warning %q", ip, w)
		}
	}
	// Serve prints it on the viewer's logger.
	var buf bytes.Buffer
	s, err := NewServer(t.TempDir(), log.New(&buf, "", 0))
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Serve(ctx, "127.0.0.1:0", s, nil); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("loopback Serve logged %q", buf.String())
	}
}

// Pages carry no inline script and a policy that forbids one; the script
// they link is served.
func TestViewPolicyHasNoInlineScripts(t *testing.T) {
	h, _ := newTestServer(t, 30)
	inline := regexp.MustCompile(`(?i)<script(\s[^>]*)?>\s*[^<\s]|<[a-z][^>]*\son[a-z]+\s*=`)
	for _, target := range []string{"/", "/run?r=demo", "/samples?r=demo", "/sample?r=demo&id=" + url.QueryEscape("rag/u001/4"),
		"/memory?r=demo&method=pramem&user=u001", "/table?r=demo&f=table.md", "/sweep?s=sw", "/run?r=nope"} {
		rec := httptestDo(h, target)
		p := rec.Header().Get("Content-Security-Policy")
		if p == "" || !strings.Contains(p, "script-src 'self'") || strings.Contains(p, "script-src 'self' 'unsafe-inline'") ||
			strings.Contains(p, "'unsafe-inline'") && !strings.Contains(p, "style-src") {
			t.Errorf("GET %s: policy %q allows inline scripts", target, p)
		}
		if m := inline.FindString(rec.Body.String()); m != "" {
			t.Errorf("GET %s: inline script %q", target, m)
		}
	}
	rec := httptestDo(h, "/assets/filter.js")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") || !strings.Contains(rec.Body.String(), "addEventListener") {
		t.Errorf("/assets/filter.js: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	for _, bad := range []string{"/assets/pages.tmpl", "/assets/..%2fpages.go", "/assets/nope.js"} {
		if rec := httptestDo(h, bad); rec.Code != 404 {
			t.Errorf("GET %s = %d, want 404", bad, rec.Code)
		}
	}
}
