package runrecord

import "errors"

// ErrDamaged is wrapped by a run store's read error for a file that exists
// but does not decode. It lives here, beside the records, so the runners
// can tell a damaged file (rebuild it) from a failed read without importing
// the store that wrote it.
var ErrDamaged = errors.New("damaged file")
