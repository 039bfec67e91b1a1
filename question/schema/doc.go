// Package schema reads an elicitation's restricted JSON schema (order kept,
// every refusal naming its property), checks answers against it and builds
// the typed content an agent receives. It imports no terminal library, so
// the protocol layer and any no-UI client can validate with it.
//
//	s, err := schema.ParseSchema(raw) // a *SchemaError: answer -32602 naming the property
//	v, err := s.Field("age").ParseInput("42")
//	err = s.Check(content)
package schema
