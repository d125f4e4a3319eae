package sampling

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// offsetModulus bounds every per-user seed offset to [0, 1e9).
const offsetModulus = 1_000_000_000

// HashOffset is PraMem's fallback seed offset: the first 8 bytes of the
// SHA-256 digest of the UTF-8 user ID (raw bytes, not hex digits), read as
// a big-endian unsigned integer, modulo 1e9.
func HashOffset(userID string) int64 {
	sum := sha256.Sum256([]byte(userID))
	return int64(binary.BigEndian.Uint64(sum[:8]) % offsetModulus)
}

// SeedOffset returns the user's offset from the seed_offsets.json table
// when the user is listed there, and HashOffset otherwise. The table holds
// offsets precomputed from the original user IDs, so it must win.
func SeedOffset(userID string, offsets map[string]int64) int64 {
	if off, ok := offsets[userID]; ok {
		return off
	}
	return HashOffset(userID)
}

// ParseSeedOffsets decodes a seed_offsets.json document: a flat object from
// user ID to an integer offset. name is used in error messages.
func ParseSeedOffsets(data []byte, name string) (map[string]int64, error) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := make(map[string]int64, len(raw))
	for user, val := range raw {
		num, ok := val.(json.Number)
		if !ok {
			return nil, fmt.Errorf("%s: user %q: offset %v is not a number", name, user, val)
		}
		v, err := num.Int64()
		if err != nil {
			// Tolerate integral floats such as 812123274.0.
			f, ferr := num.Float64()
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return nil, fmt.Errorf("%s: user %q: offset %s is not an integer", name, user, num)
			}
			v = int64(f)
		}
		out[user] = v
	}
	return out, nil
}

// LoadSeedOffsets reads a seed_offsets.json file.
func LoadSeedOffsets(path string) (map[string]int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read seed offsets: %w", err)
	}
	return ParseSeedOffsets(data, path)
}
