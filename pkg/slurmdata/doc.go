// Package slurmdata holds an ordered document tree, the shape of Slurm's
// data_t, and writes it the way Slurm 22.05's serializers do: WriteJSON as
// json-c's pretty printer (two-space indent, "\/" for slashes, an empty
// list as "[", newline, indent, "]", no newline after the document) and
// WriteYAML as libyaml's emitter with explicit tags (%YAML 1.1, "--- !!map",
// "!!str key: !!int 1", flow "[]" and "{}" for empty collections, "..."
// at the end).
//
// Commands build a Value with the constructors (Str, Int, Float, Bool,
// Null, List, Map) and an ordered Dict, so keys come out in the order they
// were set, as Slurm's parsers emit them.
//
// Where the writers knowingly differ from the C libraries:
//
//   - YAML keys longer than 128 characters stay simple keys; libyaml would
//     switch to the "? key" form.
package slurmdata
