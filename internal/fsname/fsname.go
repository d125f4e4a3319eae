// Package fsname maps identifiers that come from data (user IDs, task IDs,
// checkpoint names) to file names, and back.
//
// The mapping is injective on every filesystem the harness writes to,
// case-insensitive ones (macOS, FAT) included: an encoded name holds only
// lower-case ASCII letters, digits and "-_.~", so two IDs never share a file
// however the filesystem folds case or normalizes Unicode. IDs that are
// already such names ("42", "u001", "pramem-ab12-round-000") stay as they
// are, so existing runs keep their file names; every other byte is written
// as "~" and two hex digits, which a plain name cannot contain. An ID whose
// encoding would be too long for one path element is shortened to a prefix
// and a SHA-256 digest; such a name cannot be decoded, and whoever writes it
// records the ID beside it (see IDFile).
package fsname

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// MaxLen is the longest name Encode returns. It leaves room for a suffix
// (".json") and for the temporary names of atomic writes within the
// 255-byte limit of a path element.
const MaxLen = 200

// hashedMark separates the readable prefix of a shortened name from its
// digest. "~~" never occurs in a decodable name: "~" always starts an
// escape of two hex digits.
const hashedMark = "~~"

// IDSuffix is the extension of the file that records the ID of a shortened
// name: NAME.id beside NAME.json.
const IDSuffix = ".id"

// plainByte reports whether c stands for itself in a name.
func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// reserved are names Windows and some network filesystems refuse whatever
// their extension; the first byte of such an ID is escaped.
var reserved = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true}

func isReserved(id string) bool {
	base, _, _ := strings.Cut(id, ".")
	return reserved[base]
}

// Encode returns the file name of id (without extension).
func Encode(id string) string {
	var b strings.Builder
	const hexd = "0123456789abcdef"
	for i := 0; i < len(id); i++ {
		c := id[i]
		// A leading dot would hide the file (and "." or ".." name a
		// folder), a trailing one is dropped by Windows.
		escape := !plainByte(c) || c == '.' && (i == 0 || i == len(id)-1) || i == 0 && isReserved(id)
		if escape {
			b.WriteByte('~')
			b.WriteByte(hexd[c>>4])
			b.WriteByte(hexd[c&15])
			continue
		}
		b.WriteByte(c)
	}
	name := b.String()
	if id == "" {
		name = "~" // the only name that is "~" alone
	}
	if len(name) <= MaxLen {
		return name
	}
	sum := sha256.Sum256([]byte(id))
	digest := hex.EncodeToString(sum[:])
	keep := MaxLen - len(hashedMark) - len(digest)
	// Cut before an escape rather than inside one.
	if i := strings.LastIndexByte(name[:keep], '~'); i >= keep-2 {
		keep = i
	}
	return strings.TrimRight(name[:keep], ".") + hashedMark + digest
}

// Decode returns the ID whose name is name. ok is false for a shortened
// name (its ID is recorded in its IDFile) and for a name Encode never
// returns.
func Decode(name string) (id string, ok bool) {
	if name == "~" {
		return "", true
	}
	if name == "" || Hashed(name) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c != '~' {
			if !plainByte(c) {
				return "", false
			}
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(name) {
			return "", false
		}
		v, err := hex.DecodeString(name[i+1 : i+3])
		if err != nil || name[i+1] >= 'A' && name[i+1] <= 'F' || name[i+2] >= 'A' && name[i+2] <= 'F' {
			return "", false
		}
		b.WriteByte(v[0])
		i += 2
	}
	id = b.String()
	if Encode(id) != name {
		return "", false // e.g. an escaped byte that needed none
	}
	return id, true
}

// Hashed reports whether name is a shortened name, whose ID cannot be read
// from it.
func Hashed(name string) bool { return strings.Contains(name, hashedMark) }

// IDFile is the file beside dir/NAME.EXT that records the ID of a shortened
// name.
func IDFile(dir, name string) string { return filepath.Join(dir, name+IDSuffix) }

// Lookup returns the ID of the file name name in dir: decoded from the name,
// or read from its IDFile when the name is shortened.
func Lookup(dir, name string, read func(path string) ([]byte, error)) (string, bool) {
	if id, ok := Decode(name); ok {
		return id, true
	}
	if !Hashed(name) {
		return "", false
	}
	b, err := read(IDFile(dir, name))
	if err != nil || Encode(string(b)) != name {
		return "", false
	}
	return string(b), true
}
