package toolqa

import (
	"context"
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// buildImage loads t into a fresh in-memory SQLite database with the
// reference's schema (pandas.to_sql: Date TEXT, prices REAL, Volume INTEGER,
// Currency TEXT) and returns its serialised bytes. Episodes deserialise a
// private copy, which is much cheaper than re-inserting every row.
func buildImage(ctx context.Context, t *Table) ([]byte, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("build sqlite image: %w", err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("build sqlite image: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE `+TableName+` ("Date" TEXT, "Open" REAL, "High" REAL, "Low" REAL, "Close" REAL, "Volume" INTEGER, "Currency" TEXT)`); err != nil {
		return nil, fmt.Errorf("build sqlite image: create table: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("build sqlite image: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO `+TableName+` VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("build sqlite image: %w", err)
	}
	defer stmt.Close()
	for i, r := range t.Rows {
		if _, err := stmt.ExecContext(ctx, r.Date, r.Open, r.High, r.Low, r.Close, r.Volume, r.Currency); err != nil {
			return nil, fmt.Errorf("build sqlite image: row %d (%s): %w", i+1, r.Date, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("build sqlite image: %w", err)
	}
	var image []byte
	err = conn.Raw(func(dc any) error {
		s, ok := dc.(interface{ Serialize() ([]byte, error) })
		if !ok {
			return fmt.Errorf("driver connection %T cannot serialise", dc)
		}
		image, err = s.Serialize()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("build sqlite image: serialise: %w", err)
	}
	return image, nil
}
