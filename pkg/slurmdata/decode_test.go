package slurmdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// decodeOrdered reads JSON into a Value keeping key order, and numbers
// with a point or exponent as floats, as json-c printed them.
func decodeOrdered(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return decodeList(dec)
		}
		return decodeDict(dec)
	case bool:
		return Bool(t), nil
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			f, err := t.Float64()
			return Float(f), err
		}
		i, err := t.Int64()
		return Int(i), err
	case string:
		return Str(t), nil
	case nil:
		return Null(), nil
	}
	return Value{}, fmt.Errorf("unexpected token %v", tok)
}

func decodeList(dec *json.Decoder) (Value, error) {
	items := []Value{}
	for dec.More() {
		v, err := decodeValue(dec)
		if err != nil {
			return Value{}, err
		}
		items = append(items, v)
	}
	_, err := dec.Token()
	return List(items...), err
}

func decodeDict(dec *json.Decoder) (Value, error) {
	d := NewDict()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Value{}, err
		}
		v, err := decodeValue(dec)
		if err != nil {
			return Value{}, err
		}
		d.Set(tok.(string), v)
	}
	_, err := dec.Token()
	return Map(d), err
}
