package testkit

import (
	"fmt"
	"strings"
)

// SchemaWithFields returns a schema of n fields of every kind in turn.
func SchemaWithFields(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `"s%d":{"type":"string","title":"Field %d","minLength":1,"maxLength":40,"pattern":"^[a-z]+$"}`, i, i)
		case 1:
			fmt.Fprintf(&b, `"n%d":{"type":"integer","minimum":0,"maximum":100,"default":5}`, i)
		case 2:
			fmt.Fprintf(&b, `"b%d":{"type":"boolean","default":true}`, i)
		case 3:
			fmt.Fprintf(&b, `"e%d":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}`, i)
		case 4:
			fmt.Fprintf(&b, `"m%d":{"type":"array","items":{"enum":["x","y","z"]},"maxItems":2}`, i)
		}
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}
