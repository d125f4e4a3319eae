package apibank

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/memharness/memharness/datasets/fetch"
)

// upstreamCommit is the AlibabaResearch/DAMO-ConvAI commit the data is pinned to.
const upstreamCommit = "483554eae102996f5ec1f4feab4e78ef29c2a394"

type upstreamFile struct {
	path   string // below api-bank/, also the local path
	sha256 string
	size   int64
}

// FetchSpec lists the official API-Bank data files (init_database/*.json and
// the 264 level-1/2 dialogues), fetched one by one from raw.githubusercontent
// at the pinned commit and saved under the same relative paths Open reads.
//
// The pins are the SHA-256 of the fixture copies, which were copied byte for
// byte from that commit. The sample file that is empty upstream
// (SearchEngine-level-1-1.jsonl) is pinned as empty. ImageCaptioning.json
// (2.5 MB, unused by levels 1-2) is left out.
//
// Not covered: api_specs.json, the API schemas, exists only as an extraction
// from api-bank/apis/*.py (class attributes name, description,
// input_parameters, output_parameters, database_name); Open needs it next to
// the data and says so when it is missing.
func FetchSpec() []fetch.Spec {
	var out []fetch.Spec
	for _, f := range upstreamFiles() {
		out = append(out, fetch.Spec{
			Name:     Name,
			URL:      "https://raw.githubusercontent.com/AlibabaResearch/DAMO-ConvAI/" + upstreamCommit + "/api-bank/" + f.path,
			SHA256:   f.sha256,
			Size:     f.size,
			FileName: f.path,
		})
	}
	return out
}

// FetchAll downloads every FetchSpec file below dataDir, creating the
// subdirectories (fetch.Fetch writes into one flat directory per call).
func FetchAll(ctx context.Context, dataDir string, progress io.Writer) error {
	for _, s := range FetchSpec() {
		dir := filepath.Join(dataDir, filepath.FromSlash(path.Dir(s.FileName)))
		s.FileName = path.Base(s.FileName)
		if _, err := fetch.Fetch(ctx, s, dir, progress); err != nil {
			return fmt.Errorf("apibank: %w", err)
		}
	}
	return nil
}
