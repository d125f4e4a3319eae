package toolqa

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
)

// TableName is the SQLite table the reference loads the CSV into.
const TableName = "coffee_data"

// Columns are the CSV's columns, in order.
var columns = []string{"Date", "Open", "High", "Low", "Close", "Volume", "Currency"}

// Row is one trading day.
type Row struct {
	Date                   string // YYYY-MM-DD
	Open, High, Low, Close float64
	Volume                 int64
	Currency               string
}

// Table is the coffee price table in file order.
type Table struct {
	Rows []Row
}

// cell returns column col of row i as pandas' astype(str) prints it.
func (t *Table) cell(i int, col string) string {
	r := t.Rows[i]
	switch col {
	case "Date":
		return r.Date
	case "Open":
		return pyfmt.Float(r.Open)
	case "High":
		return pyfmt.Float(r.High)
	case "Low":
		return pyfmt.Float(r.Low)
	case "Close":
		return pyfmt.Float(r.Close)
	case "Volume":
		return strconv.FormatInt(r.Volume, 10)
	case "Currency":
		return r.Currency
	}
	return ""
}

// ReadTable parses the coffee price CSV; name is used in errors.
func ReadTable(r io.Reader, name string) (*Table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(columns)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: header: %w", name, err)
	}
	for i, c := range columns {
		if strings.TrimPrefix(header[i], "\ufeff") != c {
			return nil, fmt.Errorf("%s:1: column %d is %q, want %q", name, i+1, header[i], c)
		}
	}
	t := &Table{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		row, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows", name)
	}
	return t, nil
}

func parseRow(rec []string) (Row, error) {
	row := Row{Date: rec[0], Currency: rec[6]}
	if !isISODate(row.Date) {
		return row, fmt.Errorf("field Date: %q is not YYYY-MM-DD", row.Date)
	}
	for i, dst := range []*float64{&row.Open, &row.High, &row.Low, &row.Close} {
		v, err := strconv.ParseFloat(rec[i+1], 64)
		if err != nil {
			return row, fmt.Errorf("field %s: %q is not a number", columns[i+1], rec[i+1])
		}
		*dst = v
	}
	v, err := strconv.ParseInt(rec[5], 10, 64)
	if err != nil {
		return row, fmt.Errorf("field Volume: %q is not an integer", rec[5])
	}
	row.Volume = v
	return row, nil
}

func isISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
