package loadtest

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// leaseOwners reads the leases table: table → owning process.
func leaseOwners(db string) (map[string]string, error) {
	c, err := sql.Open("pgx", db)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	rows, err := c.QueryContext(context.Background(), `SELECT table_id, owner FROM leases`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, owner string
		if err := rows.Scan(&id, &owner); err != nil {
			return nil, err
		}
		out[id] = owner
	}
	return out, rows.Err()
}
