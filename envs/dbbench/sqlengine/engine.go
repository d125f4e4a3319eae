// Package sqlengine serves one episode database on go-mysql-server over the
// sqlwire protocol; cmd/bench-sql is its process. Only that binary imports
// it, so nothing else links the engine.
package sqlengine

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"runtime/debug"
	"strconv"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"

	"github.com/memharness/memharness/envs/dbbench/sqlwire"
)

// Serve answers requests from in on out until in ends.
func Serve(in io.Reader, out io.Writer) error {
	stop := keepAlive()
	defer stop()
	dec := json.NewDecoder(bufio.NewReaderSize(in, 1<<16))
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	var s *session
	for {
		var req sqlwire.Request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("bench-sql: read request: %w", err)
		}
		var resp sqlwire.Response
		switch req.Op {
		case sqlwire.OpStart:
			if req.MemoryLimit > 0 {
				debug.SetMemoryLimit(req.MemoryLimit)
			}
			s = start(req.DB)
		case sqlwire.OpExec:
			if s == nil {
				resp.Err = &sqlwire.Error{Num: 1046, State: "3D000", Msg: "No database selected"}
				break
			}
			resp = s.exec(req.Stmt, req.MaxRows, time.Duration(req.TimeoutNS))
		default:
			resp.Err = &sqlwire.Error{Num: 1105, State: "HY000", Msg: "bench-sql: unknown operation " + strconv.Quote(req.Op)}
		}
		if err := enc.Encode(resp); err != nil {
			return fmt.Errorf("bench-sql: write response: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("bench-sql: write response: %w", err)
		}
	}
}

// keepAlive keeps one goroutine waiting on a timer for as long as the
// engine serves. A statement stuck with every goroutine asleep (waiting on a
// lock, say) must stay stuck until bench kills the process at its deadline,
// which reports "execution time exceeded" and replays the episode. Without
// a pending timer the Go runtime would instead abort the process as
// deadlocked — but only in a build without cgo (with cgo an extra thread
// hides the deadlock from the runtime), so a CGO_ENABLED=0 binary, as the
// Dockerfile builds, would answer such a statement with a dead engine
// where a cgo build times out. The period is long, so the goroutine costs
// nothing.
func keepAlive() (stop func()) {
	t := time.NewTicker(time.Hour)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
			case <-done:
				t.Stop()
				return
			}
		}
	}()
	return func() { close(done) }
}

// session is one in-memory engine holding only the episode's database
// (plus its read-only information_schema).
type session struct {
	eng  *sqle.Engine
	sess *memory.Session
	db   string
}

func start(db string) *session {
	mdb := memory.NewDatabase(db)
	pro := memory.NewDBProvider(mdb)
	return &session{eng: sqle.NewDefault(pro), sess: memory.NewSession(sql.NewBaseSession(), pro), db: db}
}

func (s *session) exec(stmt string, maxRows int, timeout time.Duration) (resp sqlwire.Response) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	qctx := sql.NewContext(ctx, sql.WithSession(s.sess))
	qctx.SetCurrentDatabase(s.db)
	// A panic inside the engine becomes an error answer.
	defer func() {
		if r := recover(); r != nil {
			resp = sqlwire.Response{Err: &sqlwire.Error{Num: 1105, State: "HY000", Msg: fmt.Sprintf("internal engine error: %v", r)}}
		}
	}()
	schema, iter, _, err := s.eng.Query(qctx, stmt)
	if err != nil {
		return errResponse(ctx, err)
	}
	defer iter.Close(qctx)
	isWrite := types.IsOkResultSchema(schema)
	resp.HasRows = !isWrite
	for {
		row, err := iter.Next(qctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errResponse(ctx, err)
		}
		if isWrite {
			continue
		}
		if len(resp.Rows) >= maxRows {
			resp.Truncated = true
			break
		}
		cells := make([]sqlwire.Cell, len(row))
		for i, v := range row {
			cells[i] = cell(schema[i].Type, v)
		}
		resp.Rows = append(resp.Rows, cells)
	}
	return resp
}

// errResponse maps engine errors to MySQL-numbered ones.
func errResponse(ctx context.Context, err error) sqlwire.Response {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return sqlwire.Response{Timeout: true}
	}
	e := sql.CastSQLError(err)
	num, state := uint16(e.Num), e.State
	if sql.ErrColumnNotFound.Is(err) {
		num, state = 1054, "42S22" // MySQL's code for an unknown column
	}
	return sqlwire.Response{Err: &sqlwire.Error{Num: num, State: state, Msg: e.Message}}
}

// cell converts an engine value to the Python type mysql-connector would
// return for the column's MySQL type.
func cell(t sql.Type, v any) sqlwire.Cell {
	if v == nil {
		return sqlwire.Cell{K: sqlwire.KindNull}
	}
	if u, err := sql.UnwrapAny(context.Background(), v); err == nil {
		v = u
	}
	switch {
	case types.IsDecimal(t):
		if d, ok := v.(decimal.Decimal); ok {
			scale := int32(0)
			if dt, ok := t.(sql.DecimalType); ok {
				scale = int32(dt.Scale())
			}
			// The engine reports DECIMAL(p, 0) results with the maximum
			// scale (30); the value itself carries the real one.
			if scale == 30 {
				scale = max(0, -d.Exponent())
			}
			return sqlwire.Cell{K: sqlwire.KindDecimal, V: d.StringFixed(scale)}
		}
	case types.IsFloat(t):
		switch f := v.(type) {
		case float64:
			return floatCell(f)
		case float32:
			return floatCell(float64(f))
		}
	case t.Type() == query.Type_DATE:
		if tm, ok := v.(time.Time); ok {
			return sqlwire.Cell{K: sqlwire.KindDate, V: tm.Format("2006-01-02")}
		}
	}
	switch x := v.(type) {
	case int8:
		return intCell(int64(x))
	case int16:
		return intCell(int64(x))
	case int32:
		return intCell(int64(x))
	case int64:
		return intCell(x)
	case int:
		return intCell(int64(x))
	case uint8:
		return uintCell(uint64(x))
	case uint16:
		return uintCell(uint64(x))
	case uint32:
		return uintCell(uint64(x))
	case uint64:
		return uintCell(x)
	case uint:
		return uintCell(uint64(x))
	case bool:
		return sqlwire.Cell{K: sqlwire.KindBool, V: strconv.FormatBool(x)}
	case float32:
		return floatCell(float64(x))
	case float64:
		return floatCell(x)
	case decimal.Decimal:
		return sqlwire.Cell{K: sqlwire.KindDecimal, V: x.String()}
	case *big.Int:
		return sqlwire.Cell{K: sqlwire.KindBigInt, V: x.String()}
	case string:
		return sqlwire.Cell{K: sqlwire.KindString, V: x}
	case []byte:
		if types.IsText(t) && !types.IsBinaryType(t) {
			return sqlwire.Cell{K: sqlwire.KindString, V: string(x)}
		}
		return sqlwire.Cell{K: sqlwire.KindBytes, V: base64.StdEncoding.EncodeToString(x)}
	case time.Time:
		return sqlwire.Cell{K: sqlwire.KindDateTime, V: x.Format(time.RFC3339Nano)}
	}
	return sqlwire.Cell{K: sqlwire.KindString, V: fmt.Sprint(v)}
}

func intCell(x int64) sqlwire.Cell {
	return sqlwire.Cell{K: sqlwire.KindInt, V: strconv.FormatInt(x, 10)}
}

func uintCell(x uint64) sqlwire.Cell {
	return sqlwire.Cell{K: sqlwire.KindUint, V: strconv.FormatUint(x, 10)}
}

func floatCell(f float64) sqlwire.Cell {
	return sqlwire.Cell{K: sqlwire.KindFloat, V: strconv.FormatFloat(f, 'g', -1, 64)}
}
