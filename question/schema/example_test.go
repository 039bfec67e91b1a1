package schema_test

import (
	"fmt"
	"log"

	"github.com/elicit-dev/elicit/question/schema"
)

// Parse a restricted schema, read what a person typed into each field, and
// check the content before it is sent. Nothing here draws anything: a
// client without a terminal validates with the same rules as the form.
func Example() {
	s, err := schema.ParseSchema([]byte(`{"type": "object", "properties": {
		"name": {"type": "string", "title": "Name", "minLength": 2},
		"age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 150},
		"tags": {"type": "array", "items": {"type": "string", "enum": ["go", "rust", "zig"]}, "maxItems": 2}
	}, "required": ["name", "age"]}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range s.Fields {
		fmt.Println(f.Key, f.Kind, f.Hints())
	}
	_, err = s.Field("age").ParseInput("17.5")
	fmt.Println(err)
	age, _ := s.Field("age").ParseInput("42")
	tags, _ := s.Field("tags").ParseInput("go, zig")
	fmt.Println(s.Check(map[string]any{"name": "Ada", "age": age, "tags": tags}))
	fmt.Println(s.Check(map[string]any{"name": "A", "tags": []string{"go", "go", "c"}}))
	// Output:
	// name string [at least 2 characters]
	// age integer [whole number between 18 and 150]
	// tags multiselect [pick at most 2]
	// not a whole number
	// <nil>
	// "name": shorter than 2 characters; "age": required; "tags": "c" is not one of the options
}

// A schema outside the restricted subset is refused, naming the property,
// so the agent can be answered -32602 with a reason it can act on.
func ExampleParseSchema() {
	_, err := schema.ParseSchema([]byte(`{"type": "object", "properties": {
		"items": {"type": "array", "items": {"type": "object"}}}}`))
	fmt.Println(err)
	// Output:
	// property "items": arrays of objects are not supported
}
