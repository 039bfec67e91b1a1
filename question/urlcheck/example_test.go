package urlcheck_test

import (
	"fmt"

	"github.com/elicit-dev/elicit/question/urlcheck"
)

func ExampleAnalyze() {
	r := urlcheck.Analyze("https://xn--80ak6aa92e.com/login")
	fmt.Println(r.HostUnicode, r.RegistrableDomain, r.Has(urlcheck.CodeConfusable), r.MaxSeverity())
	r = urlcheck.Analyze("http://paypal.com@evil.example/")
	fmt.Println(r.HostASCII, r.RegistrableDomain, r.Has(urlcheck.CodeUserinfo))
	// Output:
	// аррӏе.com xn--80ak6aa92e.com true high
	// evil.example evil.example true
}

func ExampleNewAnalyzer() {
	// The user's own sites join the built-in list, in this analyzer only.
	a := urlcheck.NewAnalyzer("mybank.example")
	fmt.Println(a.Analyze("https://rnybank.example/login").Has(urlcheck.CodeConfusable))
	fmt.Println(urlcheck.Analyze("https://rnybank.example/login").Has(urlcheck.CodeConfusable))
	// Output:
	// true
	// false
}
