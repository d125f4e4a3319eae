package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxFileBytes caps a downloaded output or error file (OpenAI's input
// limit is 200 MB; the output of such a file is of the same order).
const maxFileBytes = 1 << 30

// OpenAI is the Files and Batches API of an OpenAI-compatible provider
// (OpenAI, Together) at BaseURL (the API root, ".../v1"). The key comes
// from the environment and is sent only as the bearer token.
type OpenAI struct {
	BaseURL string
	Key     string
	Client  *http.Client
}

// NewOpenAI returns the provider at baseURL.
func NewOpenAI(baseURL, key string, hc *http.Client) (*OpenAI, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("batch: base URL %q is not an absolute URL", baseURL)
	}
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Minute}
	}
	return &OpenAI{BaseURL: strings.TrimRight(baseURL, "/"), Key: key, Client: hc}, nil
}

// apiBatch is a batch object as the API writes it.
type apiBatch struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	InputFileID   string `json:"input_file_id"`
	OutputFileID  string `json:"output_file_id"`
	ErrorFileID   string `json:"error_file_id"`
	ExpiresAt     int64  `json:"expires_at"`
	RequestCounts Counts `json:"request_counts"`
	Errors        *struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"data"`
	} `json:"errors"`
}

func (a apiBatch) batch() Batch {
	b := Batch{ID: a.ID, Status: a.Status, InputFileID: a.InputFileID, OutputFileID: a.OutputFileID,
		ErrorFileID: a.ErrorFileID, Counts: a.RequestCounts}
	if a.ExpiresAt > 0 {
		b.ExpiresAt = time.Unix(a.ExpiresAt, 0).UTC()
	}
	if a.Errors != nil {
		var msgs []string
		for _, e := range a.Errors.Data {
			msgs = append(msgs, strings.TrimSpace(e.Code+" "+e.Message))
		}
		b.Errors = strings.Join(msgs, "; ")
	}
	return b
}

func (o *OpenAI) do(ctx context.Context, op, method, path string, body io.Reader, ctype string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, o.BaseURL+path, body)
	if err != nil {
		return nil, fmt.Errorf("batch %s: %w", op, err)
	}
	if o.Key != "" {
		req.Header.Set("Authorization", "Bearer "+o.Key)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("batch %s: %w", op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("batch %s: reading the reply: %w", op, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("batch %s: the reply exceeds %d bytes", op, maxFileBytes)
	}
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("batch %s: %w", op, ErrNotFound)
	}
	if resp.StatusCode/100 != 2 {
		he := &HTTPError{Op: op, Status: resp.StatusCode, Body: shorten(string(data), 300)}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
			he.RetryAfter = time.Duration(s) * time.Second
		}
		return nil, he
	}
	return data, nil
}

func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Upload posts the file with purpose "batch".
func (o *OpenAI) Upload(ctx context.Context, name string, data []byte) (string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("purpose", "batch"); err != nil {
		return "", err
	}
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		return "", err
	}
	if _, err := fw.Write(data); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	out, err := o.do(ctx, "upload", http.MethodPost, "/files", &buf, w.FormDataContentType())
	if err != nil {
		return "", err
	}
	var f struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &f); err != nil || f.ID == "" {
		return "", fmt.Errorf("batch upload: the reply names no file id: %s", shorten(string(out), 200))
	}
	return f.ID, nil
}

// Submit creates a batch over the chat completions endpoint.
func (o *OpenAI) Submit(ctx context.Context, fileID, window string, meta map[string]string) (Batch, error) {
	body, err := json.Marshal(map[string]any{
		"input_file_id": fileID, "endpoint": "/v1/chat/completions", "completion_window": window, "metadata": meta,
	})
	if err != nil {
		return Batch{}, err
	}
	return o.batchCall(ctx, "submit", http.MethodPost, "/batches", bytes.NewReader(body), "application/json")
}

func (o *OpenAI) batchCall(ctx context.Context, op, method, path string, body io.Reader, ctype string) (Batch, error) {
	out, err := o.do(ctx, op, method, path, body, ctype)
	if err != nil {
		return Batch{}, err
	}
	var a apiBatch
	if err := json.Unmarshal(out, &a); err != nil || a.ID == "" {
		return Batch{}, fmt.Errorf("batch %s: the reply is not a batch: %s", op, shorten(string(out), 200))
	}
	return a.batch(), nil
}

// Get reads one batch.
func (o *OpenAI) Get(ctx context.Context, id string) (Batch, error) {
	return o.batchCall(ctx, "poll", http.MethodGet, "/batches/"+url.PathEscape(id), nil, "")
}

// Cancel cancels one batch.
func (o *OpenAI) Cancel(ctx context.Context, id string) (Batch, error) {
	return o.batchCall(ctx, "cancel", http.MethodPost, "/batches/"+url.PathEscape(id)+"/cancel", nil, "")
}

// Find pages through the provider's batches, newest first, for one over
// fileID.
func (o *OpenAI) Find(ctx context.Context, fileID string) (Batch, bool, error) {
	after := ""
	for page := 0; page < 100; page++ {
		path := "/batches?limit=100"
		if after != "" {
			path += "&after=" + url.QueryEscape(after)
		}
		out, err := o.do(ctx, "list", http.MethodGet, path, nil, "")
		if err != nil {
			return Batch{}, false, err
		}
		var l struct {
			Data    []apiBatch `json:"data"`
			HasMore bool       `json:"has_more"`
		}
		if err := json.Unmarshal(out, &l); err != nil {
			return Batch{}, false, fmt.Errorf("batch list: %w", err)
		}
		for _, a := range l.Data {
			if a.InputFileID == fileID {
				return a.batch(), true, nil
			}
		}
		if !l.HasMore || len(l.Data) == 0 {
			return Batch{}, false, nil
		}
		after = l.Data[len(l.Data)-1].ID
	}
	return Batch{}, false, nil
}

// Content downloads a file's bytes.
func (o *OpenAI) Content(ctx context.Context, fileID string) ([]byte, error) {
	return o.do(ctx, "download", http.MethodGet, "/files/"+url.PathEscape(fileID)+"/content", nil, "")
}
