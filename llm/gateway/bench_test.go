package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// BenchmarkGatewayChat is one chat completion through the gateway over the
// sim: what the gateway adds to a child's call (HTTP on loopback, decoding,
// attribution), the sim's answer being cheap.
func BenchmarkGatewayChat(b *testing.B) {
	g, err := Start(context.Background(), Options{Model: simStack(), Method: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	bind := g.Bind(context.Background(), Scope{SampleID: "s"})
	defer bind.Release()
	body, _ := json.Marshal(officialChat())
	client := &http.Client{}
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest("POST", g.URL()+"/chat/completions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+g.token)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}
