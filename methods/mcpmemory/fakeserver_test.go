package mcpmemory

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeModeVar selects, in a re-run of this test binary, the MCP server the
// fault tests start as a child process: a go-sdk server over stdio whose
// tools misbehave as the mode says.
const fakeModeVar = "MEMHARNESS_MCP_FAKE_MODE"

// fakeStartsVar, when set in a fake server's environment, names a file the
// server adds a line to as it starts.
const fakeStartsVar = "MEMHARNESS_MCP_FAKE_STARTS"

func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv(fakeModeVar); ok {
		os.Exit(runFakeServer(mode))
	}
	if harness, ok := harnessMain(); ok {
		os.Exit(harness())
	}
	os.Exit(m.Run())
}

type rememberArgs struct {
	User string `json:"user"`
	Text string `json:"text"`
}

type recallArgs struct {
	User  string `json:"user"`
	Query string `json:"query"`
	K     int    `json:"k"`
}

type recallOut struct {
	Memories []string `json:"memories"`
}

// runFakeServer serves "remember" and "recall" over stdin/stdout. Modes:
// ok (substring recall), crash (exits on the third write, after a line on
// stderr), hang (recall never answers), toolerror (recall reports a tool
// error), malformed (recall answers text that is not JSON), env (recall
// answers the process's environment), linger (as ok, but lives on after
// its stdin closes, as a careless server would).
func runFakeServer(mode string) int {
	fmt.Fprintf(os.Stderr, "fake server starting in mode %s\n", mode)
	if path := os.Getenv(fakeStartsVar); path != "" {
		// One line per start, for the tests that count servers.
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	err := newFakeServer(mode, false).Run(context.Background(), &mcp.StdioTransport{})
	if mode == "linger" {
		time.Sleep(time.Hour)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake server:", err)
		return 1
	}
	return 0
}

// newFakeServer builds the fake server. byUser makes recall see only the
// records written with the same user (a server shared by every user keeps
// them apart by the user its arguments carry); a per-user server recalls
// whatever it holds.
func newFakeServer(mode string, byUser bool) *mcp.Server {
	var mu sync.Mutex
	var stored []rememberArgs
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-memory", Version: "0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "remember", Description: "store one record"},
		func(_ context.Context, _ *mcp.CallToolRequest, in rememberArgs) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			defer mu.Unlock()
			if mode == "model" {
				// A server that extracts each record with a model, as
				// mem0's does, through the gateway its environment names.
				fact, err := fakeExtract(in.Text)
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil, nil
				}
				in.Text += "\nfact: " + fact
			}
			stored = append(stored, in)
			if mode == "crash" && len(stored) == 3 {
				fmt.Fprintln(os.Stderr, "fake server: out of memory at record 3")
				os.Exit(3)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	if mode == "malformed" {
		// A raw handler: no structured content, a text that is not JSON.
		s.AddTool(&mcp.Tool{Name: "recall", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "<html>not json</html>"}}}, nil
			})
		return s
	}
	mcp.AddTool(s, &mcp.Tool{Name: "recall", Description: "search the records"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in recallArgs) (*mcp.CallToolResult, recallOut, error) {
			switch mode {
			case "hang":
				<-ctx.Done()
				time.Sleep(time.Hour)
			case "toolerror":
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "index unavailable"}}}, recallOut{}, nil
			case "env":
				return nil, recallOut{Memories: os.Environ()}, nil
			}
			mu.Lock()
			defer mu.Unlock()
			var out recallOut
			for _, r := range stored {
				if (!byUser || r.User == in.User) && strings.Contains(r.Text, in.Query) {
					out.Memories = append(out.Memories, r.Text)
				}
			}
			if out.Memories == nil {
				out.Memories = []string{}
			}
			return nil, out, nil
		})
	return s
}

// fakeExtract asks the model at OPENAI_BASE_URL, with the key in
// OPENAI_API_KEY, for a fact of text, naming the purpose "extract".
func fakeExtract(text string) (string, error) {
	body, _ := json.Marshal(map[string]any{"model": os.Getenv("OPENAI_MODEL"),
		"messages": []map[string]string{{"role": "user", "content": "Extract one fact from: " + text}}})
	req, err := http.NewRequest(http.MethodPost, os.Getenv("OPENAI_BASE_URL")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Memharness-Purpose", "extract")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("model: HTTP %d: %s", resp.StatusCode, b)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Choices) == 0 {
		return "", fmt.Errorf("model: unreadable reply %s", b)
	}
	return out.Choices[0].Message.Content, nil
}
