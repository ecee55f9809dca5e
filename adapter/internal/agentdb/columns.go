package agentdb

import (
	"context"
	"database/sql"
)

// Columns lists the columns of table; an empty set means no such table.
// The agents add columns as their schemas grow, so optional ones are
// looked up rather than assumed.
func Columns(ctx context.Context, tx *sql.Tx, table string) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := make(map[string]bool)
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		cols[name] = true
	}
	return cols, rows.Err()
}

// Text selects column name as text, or an empty string where the schema
// (cols, from Columns) predates it. name must be a trusted identifier.
func Text(cols map[string]bool, name string) string {
	if cols[name] {
		return "COALESCE(CAST(" + name + " AS TEXT), '')"
	}
	return "''"
}

// Integer selects column name as an integer, or 0 where the schema
// predates it. name must be a trusted identifier.
func Integer(cols map[string]bool, name string) string {
	if cols[name] {
		return "COALESCE(CAST(" + name + " AS INTEGER), 0)"
	}
	return "0"
}
