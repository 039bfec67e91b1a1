package ahp

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/question"
)

// CheckRequest says why a host's request carries more than one question
// may (package question's caps, the same for every protocol): a message
// over question.MaxMessageBytes, or questions whose JSON is over
// question.MaxSchemaBytes. A client does not show such a request: it
// completes it with cancel (nobody saw it), as an ACP or MCP source
// refuses an elicitation over the caps.
func CheckRequest(r *Request) error {
	if err := question.CheckMessage(r.Message); err != nil {
		return err
	}
	b, err := json.Marshal(r.Questions)
	if err != nil {
		return err
	}
	if len(b) > question.MaxSchemaBytes {
		return fmt.Errorf("questions are %d bytes, over the limit of %d", len(b), question.MaxSchemaBytes)
	}
	return nil
}
