// Package headless is elicit's front end without a person (elicit -p and
// elicit sessions): one prompt, the reply as plain text, and every
// question answered by rule (hooks, an answers file, defaults) or declined.
//
//	code := headless.Run(headless.Options{Agent: acpconn.Config{Argv: argv}, Prompt: "summarise README.md",
//		AcceptDefaults: true, Stdout: os.Stdout, Stderr: os.Stderr})
package headless
