package checks

import (
	"encoding/json"
	"sync"
)

// warmOnce makes [Warm] run once per process.
var warmOnce sync.Once

// Warm compiles a small schema and checks two instances against it, one
// that passes and one that does not, and throws the result away: the
// first schema a process compiles pays for what the library builds on
// first use (its decoders for a schema document, by reflection) and for
// reading its code from the binary, some 1-4 ms on a slow machine, where
// the next one takes a tenth of that. A command that is about to check a
// server's schemas calls it in a goroutine while the server starts and
// answers the handshake, which it would otherwise only wait for, so that
// the checks before and after a call do not pay it. Later calls return at
// once; it is safe to call from several goroutines.
func Warm() {
	warmOnce.Do(func() {
		v := NewValidator()
		for _, instance := range warmInstances {
			_, _ = v.Validate(warmSchema, instance)
		}
	})
}

// warmSchema is what [Warm] compiles: the keywords tools' schemas use most.
var warmSchema = json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","minimum":0},` +
	`"s":{"type":"string","enum":["a","b"]},"o":{"type":"array","items":{"type":"integer"}}},` +
	`"required":["n"],"additionalProperties":false}`)

// warmInstances are what [Warm] checks against warmSchema: one passes,
// the other fails three keywords, so that both ways through are warmed.
var warmInstances = []json.RawMessage{
	json.RawMessage(`{"n":1,"s":"a","o":[1]}`),
	json.RawMessage(`{"n":-1,"s":"c","x":1}`),
}
