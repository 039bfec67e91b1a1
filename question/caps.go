package question

import "fmt"

// The caps every source puts on what one question may carry, declared
// once for every protocol (ACP, MCP, AHP): a source refuses a question
// over them (ACP and MCP with -32602), it never truncates one.
const (
	// MaxMessageBytes is the longest message a question may carry, in
	// bytes as the source sent it.
	MaxMessageBytes = 16 * 1024
	// MaxSchemaBytes is the largest form a question may carry: its
	// requested schema as JSON, in bytes as the source sent it.
	MaxSchemaBytes = 1 << 20
)

// CheckMessage says why a question's message is over MaxMessageBytes, or
// returns nil.
func CheckMessage(message string) error {
	if len(message) > MaxMessageBytes {
		return fmt.Errorf("message is %d bytes, over the limit of %d", len(message), MaxMessageBytes)
	}
	return nil
}

// CheckSchema says why a form's schema (its JSON) is over MaxSchemaBytes,
// or returns nil.
func CheckSchema(raw []byte) error {
	if len(raw) > MaxSchemaBytes {
		return fmt.Errorf("schema is %d bytes, over the limit of %d", len(raw), MaxSchemaBytes)
	}
	return nil
}
