package fsname

import (
	"strings"
	"testing"
)

// The IDs that used to share a file (x..y and x_y under the old "_"
// replacement), differ only by case, or could not be a file name at all.
var hostileIDs = []string{
	"x..y", "x_y", "x/y", `x\y`, "x:y", "x y", "A", "a", "Alice", "alice",
	"", ".", "..", ".hidden", "trail.", "nul\x00byte", "\x00", "con", "CON", "con.txt", "~", "~41", "x~y",
	"é", "e\u0301", "日本", strings.Repeat("a", 250), strings.Repeat("a", 251), strings.Repeat("A", 300),
	strings.Repeat("/", 120), strings.Repeat("a", 199) + "B", strings.Repeat("ab", 150) + "1", strings.Repeat("ab", 150) + "2",
}

func TestEncodeKeepsPlainIDs(t *testing.T) {
	for _, id := range []string{"1", "42", "u001", "user_7", "pramem-ab12cd-round-000", "mem0-026c16204277d3a2", "x..y", "a.b"} {
		if got := Encode(id); got != id {
			t.Errorf("Encode(%q) = %q; a plain ID keeps its name", id, got)
		}
	}
}

func TestEncodeInjectiveOnCaseInsensitiveFS(t *testing.T) {
	seen := map[string]string{}
	for _, id := range hostileIDs {
		name := Encode(id)
		if len(name) > MaxLen || name == "" {
			t.Errorf("Encode(%q) = %q: %d bytes, want 1..%d", id, name, len(name), MaxLen)
		}
		if name == "." || name == ".." || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
			t.Errorf("Encode(%q) = %q: not a safe path element", id, name)
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; !plainByte(c) && c != '~' {
				t.Fatalf("Encode(%q) = %q holds byte %q", id, name, c)
			}
		}
		// A case-insensitive filesystem sees the folded name.
		key := strings.ToLower(name)
		if prev, dup := seen[key]; dup {
			t.Errorf("IDs %q and %q share the file name %q", prev, id, name)
		}
		seen[key] = id
	}
}

func TestDecodeReversesEncode(t *testing.T) {
	for _, id := range hostileIDs {
		name := Encode(id)
		got, ok := Decode(name)
		if Hashed(name) {
			if ok {
				t.Errorf("Decode(%q) of a shortened name = %q, want not ok", name, got)
			}
			continue
		}
		if !ok || got != id {
			t.Errorf("Decode(Encode(%q)) = %q, %v", id, got, ok)
		}
	}
	if !Hashed(Encode(strings.Repeat("a", 300))) {
		t.Error("a 300-byte ID is not shortened")
	}
	for _, name := range []string{"", "A", "x~4", "x~zz", "~61", "~2E", "a b"} {
		if id, ok := Decode(name); ok {
			t.Errorf("Decode(%q) = %q; Encode never returns that name", name, id)
		}
	}
}
