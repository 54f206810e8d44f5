package command

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/slurmdata"
)

// jObj is a JSON object whose keys keep their order; jArr a JSON array.
// Values are string, int, int64, nil, jObj or jArr. They are written
// through slurmdata, as Slurm's serializers write them.
type (
	jObj []jKey
	jArr []any
	jKey struct {
		k string
		v any
	}
)

// toData turns a jObj tree into slurmdata's document.
func toData(v any) slurmdata.Value {
	switch v := v.(type) {
	case nil:
		return slurmdata.Null()
	case string:
		return slurmdata.Str(v)
	case int:
		return slurmdata.Int(int64(v))
	case int64:
		return slurmdata.Int(v)
	case jObj:
		d := slurmdata.NewDict()
		for _, kv := range v {
			d.Set(kv.k, toData(kv.v))
		}
		return slurmdata.Map(d)
	case jArr:
		items := make([]slurmdata.Value, 0, len(v))
		for _, e := range v {
			items = append(items, toData(e))
		}
		return slurmdata.List(items...)
	}
	return slurmdata.Str(fmt.Sprint(v))
}
