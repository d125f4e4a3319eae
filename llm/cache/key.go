package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/memharness/memharness/llm"
)

// Version is the cache format version. It is part of every key and stored in
// each file, so bumping it invalidates old entries instead of misreading them.
const Version = 1

// KeyParts are the components that make up a cache key. Purpose, Hint,
// Affinity and Accept are deliberately absent: they change neither what the
// endpoint receives nor what it answers.
//
// The struct is our own canonical encoding: the SDK's request bytes can change
// between releases (go-openai #1104) and must never decide a hit.
type KeyParts struct {
	Version         int             `json:"v"`
	Identity        string          `json:"identity"`
	Messages        []llm.Message   `json:"messages"`
	Temperature     *float64        `json:"temperature"`
	TopP            *float64        `json:"top_p"`
	MaxTokens       int             `json:"max_tokens"`
	Seed            *int            `json:"seed"`
	Stop            []string        `json:"stop"`
	ReasoningEffort string          `json:"reasoning_effort"`
	Extra           json.RawMessage `json:"extra"`
	SampleID        string          `json:"sample_id"`
	Attempt         int             `json:"attempt"`
	// Repeat is left out of the encoding at 0, so the first draw of a
	// sample keys as it did before repeated draws existed.
	Repeat int `json:"repeat,omitempty"`
}

// Parts returns the key components of req under identity.
func Parts(identity string, req llm.Request) (KeyParts, error) {
	p := req.Params
	kp := KeyParts{
		Version:         Version,
		Identity:        identity,
		Messages:        req.Messages,
		Temperature:     p.Temperature,
		TopP:            p.TopP,
		MaxTokens:       p.MaxTokens,
		Seed:            p.Seed,
		Stop:            p.Stop,
		ReasoningEffort: p.ReasoningEffort,
		SampleID:        req.SampleID,
		Attempt:         req.Attempt,
		Repeat:          req.Repeat,
	}
	// Normalise "absent" so that nil and empty encode alike.
	if len(kp.Messages) == 0 {
		kp.Messages = nil
	}
	if len(kp.Stop) == 0 {
		kp.Stop = nil
	}
	kp.Extra = json.RawMessage("null")
	if len(p.Extra) > 0 {
		// encoding/json writes map keys sorted at every depth, which is the
		// canonical form we need.
		b, err := json.Marshal(p.Extra)
		if err != nil {
			return KeyParts{}, fmt.Errorf("cache: encode params.extra: %w", err)
		}
		kp.Extra = b
	}
	return kp, nil
}

// Canonical returns the exact bytes that are hashed into the key.
func (kp KeyParts) Canonical() ([]byte, error) {
	b, err := json.Marshal(kp)
	if err != nil {
		return nil, fmt.Errorf("cache: encode key: %w", err)
	}
	return b, nil
}

// Sum returns the SHA-256 of the canonical encoding.
func (kp KeyParts) Sum() ([sha256.Size]byte, error) {
	b, err := kp.Canonical()
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(b), nil
}

// Key returns the hex cache key of req under identity.
func Key(identity string, req llm.Request) (string, error) {
	kp, err := Parts(identity, req)
	if err != nil {
		return "", err
	}
	s, err := kp.Sum()
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(s[:]), nil
}
