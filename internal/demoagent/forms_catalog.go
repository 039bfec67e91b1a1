package demoagent

// formSpec is one form of the /form tour. The schema is raw JSON so its property order, which
// is the order the client shows the fields in, stays exactly as written.
type formSpec struct {
	name     string // the argument of "/form <name>"
	summary  string // one line for /help
	message  string // the elicitation message
	schema   string // the requestedSchema
	toolCall bool   // scoped to a tool call that the form confirms
}

// formCatalog lists the forms of /form, in the order they are asked. Together they cover every
// kind of the restricted schema: each string format and constraint, integer and number ranges,
// booleans, all five enum flavours, defaults, a tool-call scoped confirmation and the "Other" shape.
func formCatalog() []formSpec {
	return []formSpec{
		{
			name:    "defaults",
			summary: "every primitive kind with a default",
			message: "Check your profile. Every field is filled in already; change what you like.",
			schema: `{
  "type": "object",
  "title": "Profile",
  "properties": {
    "name": {"type": "string", "title": "Name", "description": "Your full name", "default": "John Doe"},
    "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150, "default": 30},
    "score": {"type": "number", "title": "Score", "minimum": 0, "maximum": 100, "default": 95.5},
    "status": {"type": "string", "title": "Status", "enum": ["active", "inactive", "pending"], "default": "active"},
    "verified": {"type": "boolean", "title": "Verified", "description": "Has the account been verified?", "default": true}
  },
  "required": ["name", "age", "status"]
}`,
		},
		{
			name:    "enums",
			summary: "the five enum flavours: enum, titled oneOf, enumNames, items.enum, items.anyOf",
			message: "Pick your options. Each field uses a different way of listing choices.",
			schema: `{
  "type": "object",
  "properties": {
    "color": {"type": "string", "title": "Colour (plain enum)", "enum": ["red", "green", "blue"]},
    "size": {"type": "string", "title": "Size (titled oneOf)", "oneOf": [
      {"const": "s", "title": "Small", "description": "Fits in a pocket"},
      {"const": "m", "title": "Medium"},
      {"const": "l", "title": "Large", "description": "Needs two hands"}
    ], "default": "m"},
    "region": {"type": "string", "title": "Region (legacy enumNames)", "enum": ["eu-west-1", "us-east-1", "ap-south-1"],
      "enumNames": ["Europe (Ireland)", "US East (Virginia)", "Asia Pacific (Mumbai)"]},
    "toppings": {"type": "array", "title": "Toppings (items.enum)", "description": "Pick 1 to 3",
      "items": {"type": "string", "enum": ["cheese", "tomato", "olives", "mushrooms", "basil"]},
      "minItems": 1, "maxItems": 3, "default": ["cheese"]},
    "languages": {"type": "array", "title": "Languages (items.anyOf)",
      "items": {"anyOf": [
        {"const": "go", "title": "Go"},
        {"const": "rs", "title": "Rust"},
        {"const": "ts", "title": "TypeScript"},
        {"const": "py", "title": "Python"}
      ]}}
  },
  "required": ["color", "size", "toppings"]
}`,
		},
		{
			name:    "strings",
			summary: "string formats (email, uri, date, date-time) and constraints (length, pattern)",
			message: "Tell me how to reach you. Formats and lengths are checked before anything is sent.",
			schema: `{
  "type": "object",
  "properties": {
    "email": {"type": "string", "title": "Email", "format": "email"},
    "website": {"type": "string", "title": "Website", "format": "uri", "description": "Starting with https://"},
    "birthday": {"type": "string", "title": "Birthday", "format": "date", "description": "YYYY-MM-DD"},
    "meeting": {"type": "string", "title": "Next meeting", "format": "date-time", "description": "RFC 3339, for example 2026-11-22T15:00:00Z"},
    "username": {"type": "string", "title": "Username", "minLength": 3, "maxLength": 16, "pattern": "^[a-z][a-z0-9_]*$",
      "description": "3 to 16 characters: lower-case letters, digits, underscores"},
    "bio": {"type": "string", "title": "Short bio", "maxLength": 140}
  },
  "required": ["email", "username"]
}`,
		},
		{
			name:    "numbers",
			summary: "integers and numbers with ranges",
			message: "A few numbers, each with its own range.",
			schema: `{
  "type": "object",
  "properties": {
    "quantity": {"type": "integer", "title": "Quantity", "minimum": 1, "maximum": 99, "default": 1},
    "rating": {"type": "number", "title": "Rating", "description": "0 to 5, halves allowed", "minimum": 0, "maximum": 5},
    "temperature": {"type": "number", "title": "Temperature (°C)", "minimum": -40, "maximum": 60},
    "retries": {"type": "integer", "title": "Retries", "minimum": 0}
  },
  "required": ["quantity", "rating"]
}`,
		},
		{
			name:     "confirm",
			summary:  "a destructive action confirmed inside a tool call",
			message:  "Delete the 42 files in ./build? This cannot be undone.",
			toolCall: true,
			schema: `{
  "type": "object",
  "properties": {
    "confirm": {"type": "boolean", "title": "Delete 42 files", "description": "This cannot be undone", "default": false},
    "reason": {"type": "string", "title": "Reason", "description": "Kept in the audit log", "maxLength": 200}
  },
  "required": ["confirm"]
}`,
		},
		{
			name:    "other",
			summary: `the "Other" shape: a choice plus a free-text companion field`,
			message: "Which approach should I take?",
			schema: `{
  "type": "object",
  "properties": {
    "question_0": {"type": "string", "title": "Approach", "description": "Which approach should I take?", "oneOf": [
      {"const": "Refactor first", "title": "Refactor first", "description": "Clean up, then add the feature"},
      {"const": "Feature first", "title": "Feature first", "description": "Ship it, tidy later"},
      {"const": "Ask the team", "title": "Ask the team"}
    ]},
    "question_0_custom": {"type": "string", "title": "Other", "description": "Type your own answer instead"}
  }
}`,
		},
	}
}

// formByName returns the catalog form called name.
func formByName(name string) (formSpec, bool) {
	for _, f := range formCatalog() {
		if f.name == name {
			return f, true
		}
	}
	return formSpec{}, false
}

// smallFormSchema is the one-field form that /forms N asks N times.
const smallFormSchema = `{"type":"object","properties":{"answer":{"type":"string","title":"Answer","default":"ok"}},"required":["answer"]}`
