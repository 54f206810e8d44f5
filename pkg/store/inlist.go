package store

import "encoding/json"

// inList is the condition "col IN (vals)" with the whole list passed as one
// JSON parameter, so that a list of any length (sacct -j with 100,000 ids)
// stays within SQLite's limit on parameters per statement (32766) instead
// of failing the query.
func inList[T any](col string, vals []T) (string, any) {
	data, _ := json.Marshal(vals) // ids and strings always marshal
	return col + " IN (SELECT value FROM json_each(?))", string(data)
}
