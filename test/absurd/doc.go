// Package absurd builds request bodies that a strict JSON decoder accepts
// but a handler may not expect: every field of a request type filled with
// zeros, extremes, huge or strange strings, or lists of 100,000 elements;
// and bodies that are not a request at all. Tests of the daemons' HTTP
// APIs send them to every route to check that each answer is a clear error
// or a result, never a crash.
package absurd
