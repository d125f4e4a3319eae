package gateway

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"slices"

	"github.com/memharness/memharness/llm/tokens"
)

// embeddingRequest is an OpenAI embeddings body.
type embeddingRequest struct {
	texts      []string
	base64     bool
	dimensions int
}

func decodeEmbeddings(fields map[string]json.RawMessage) (embeddingRequest, *apiError) {
	var out embeddingRequest
	for name, raw := range fields {
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) && name != "input" {
			continue
		}
		switch name {
		case "input":
			var one string
			if json.Unmarshal(raw, &one) == nil {
				out.texts = []string{one}
				continue
			}
			if err := json.Unmarshal(raw, &out.texts); err != nil {
				return out, badRequest("input", "input: want a string or a list of strings (token arrays are not supported)")
			}
		case "encoding_format":
			var f string
			json.Unmarshal(raw, &f)
			switch f {
			case "float":
			case "base64":
				out.base64 = true
			default:
				return out, badRequest(name, "encoding_format %s: want \"float\" or \"base64\"", raw)
			}
		case "dimensions":
			if err := json.Unmarshal(raw, &out.dimensions); err != nil || out.dimensions <= 0 {
				return out, badRequest(name, "dimensions %s: want a positive integer", raw)
			}
		case "model", "user":
		default:
			return out, badRequest(name, "unknown field %q: the embeddings endpoint takes input, model, encoding_format and dimensions", name)
		}
	}
	if len(out.texts) == 0 {
		return out, badRequest("input", "input: at least one text is required")
	}
	return out, nil
}

func (g *Gateway) embeddings(w http.ResponseWriter, r *http.Request) {
	fields, aerr := readBody(r)
	if aerr != nil {
		aerr.write(w)
		return
	}
	er, aerr := decodeEmbeddings(fields)
	if aerr != nil {
		aerr.write(w)
		return
	}
	b, done, aerr := g.scopeFor(r)
	if aerr != nil {
		aerr.write(w)
		return
	}
	defer done()
	emb := g.opts.Embedder
	if b.Embedder != nil {
		emb = b.Embedder
	}
	if emb == nil {
		(&apiError{status: http.StatusNotImplemented, kind: "invalid_request_error", code: "no_embedder",
			message: "this run has no embedder for the gateway to serve"}).write(w)
		return
	}
	ctx, cancel := g.callContext(r, b)
	defer cancel()
	vecs, err := emb.Embed(ctx, slices.Clone(er.texts))
	if err != nil {
		b.fail(err)
		modelError(err).write(w)
		return
	}
	if len(vecs) != len(er.texts) {
		(&apiError{status: http.StatusBadGateway, kind: "api_error", code: "backbone_error",
			message: "the embedder returned a different number of vectors than texts"}).write(w)
		return
	}
	data := make([]any, len(vecs))
	for i, v := range vecs {
		if er.dimensions != 0 && er.dimensions != len(v) {
			badRequest("dimensions", "dimensions %d: the run's embedder gives %d (leave dimensions out, or set the run's embedder to that size)", er.dimensions, len(v)).write(w)
			return
		}
		var vec any = v
		if er.base64 {
			vec = encodeBase64(v)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": vec}
	}
	// The embedder reports no usage; the count is the harness's own.
	n := 0
	for _, t := range er.texts {
		n += tokens.Approx{}.Count(t)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list", "data": data, "model": g.opts.EmbeddingModelName,
		"usage": map[string]any{"prompt_tokens": n, "total_tokens": n},
	})
}

// encodeBase64 is OpenAI's base64 encoding of a vector: little-endian
// float32s.
func encodeBase64(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return base64.StdEncoding.EncodeToString(b)
}
