package dbbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"
)

// gmsBackend runs each episode in its own in-memory go-mysql-server
// engine, so episodes share nothing and the engine knows no database but
// the episode's (plus its read-only information_schema).
type gmsBackend struct {
	timeout time.Duration
}

func (gmsBackend) close() error { return nil }

func (gmsBackend) dialect() dialect { return dialect{exactAggregates: true, materialize: true} }

func (b gmsBackend) start(_ context.Context, db string) (session, error) {
	mdb := memory.NewDatabase(db)
	pro := memory.NewDBProvider(mdb)
	eng := sqle.NewDefault(pro)
	return &gmsSession{eng: eng, sess: memory.NewSession(sql.NewBaseSession(), pro), db: db, timeout: b.timeout}, nil
}

type gmsSession struct {
	eng     *sqle.Engine
	sess    *memory.Session
	db      string
	timeout time.Duration
}

func (s *gmsSession) exec(parent context.Context, stmt string, maxRows int) (res result, err error) {
	ctx, cancel := context.WithTimeout(parent, s.timeout)
	defer cancel()
	qctx := sql.NewContext(ctx, sql.WithSession(s.sess))
	qctx.SetCurrentDatabase(s.db)
	// The engine is third-party code fed untrusted SQL: a panic inside it
	// becomes an error observation, not a crashed harness.
	defer func() {
		if r := recover(); r != nil {
			res, err = result{}, &sqlError{Num: 1105, State: "HY000", Msg: fmt.Sprintf("internal engine error: %v", r)}
		}
	}()
	schema, iter, _, err := s.eng.Query(qctx, stmt)
	if err != nil {
		return result{}, gmsError(parent, ctx, err)
	}
	defer iter.Close(qctx)
	isWrite := types.IsOkResultSchema(schema)
	res.hasRows = !isWrite
	for {
		row, err := iter.Next(qctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return result{}, gmsError(parent, ctx, err)
		}
		if isWrite {
			continue
		}
		if len(res.rows) >= maxRows {
			res.truncated = true
			break
		}
		cells := make([]any, len(row))
		for i, v := range row {
			cells[i] = gmsCell(schema[i].Type, v)
		}
		res.rows = append(res.rows, cells)
	}
	return res, nil
}

func (s *gmsSession) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.exec(ctx, "DROP DATABASE IF EXISTS `"+s.db+"`", 0)
	// The engine's Close reports its own background context as cancelled.
	if cerr := s.eng.Close(); err == nil && !errors.Is(cerr, context.Canceled) {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("drop %s: %w", s.db, err)
	}
	return nil
}

// gmsError maps engine errors to MySQL-numbered ones; a cancelled parent
// context is returned as is (the harness stopped, not the statement).
func gmsError(parent, ctx context.Context, err error) error {
	if parent.Err() != nil {
		return parent.Err()
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return errTimeout()
	}
	e := sql.CastSQLError(err)
	num, state := uint16(e.Num), e.State
	if sql.ErrColumnNotFound.Is(err) {
		num, state = 1054, "42S22" // MySQL's code for an unknown column
	}
	return &sqlError{Num: num, State: state, Msg: e.Message}
}

// gmsCell converts an engine value to the Python type mysql-connector
// would return for the column's MySQL type.
func gmsCell(t sql.Type, v any) any {
	if v == nil {
		return nil
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
			return pyDecimal(d.StringFixed(scale))
		}
	case types.IsFloat(t):
		switch f := v.(type) {
		case float64:
			return f
		case float32:
			return float64(f)
		}
	case t.Type() == query.Type_DATE:
		if tm, ok := v.(time.Time); ok {
			return pyDate{tm.Year(), int(tm.Month()), tm.Day()}
		}
	}
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case int:
		return int64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case uint:
		return uint64(x)
	case bool:
		return x
	case float32:
		return float64(x)
	case float64:
		return x
	case decimal.Decimal:
		return pyDecimal(x.String())
	case *big.Int:
		return pyInt(x.String())
	case string:
		return x
	case []byte:
		if types.IsText(t) && !types.IsBinaryType(t) {
			return string(x)
		}
		return x
	case time.Time:
		return x
	}
	return fmt.Sprint(v)
}
