package urlconsent_test

import (
	"fmt"

	"github.com/elicit-dev/elicit/urlconsent"
)

func ExampleAnalyze() {
	r := urlconsent.Analyze("https://xn--80ak6aa92e.com/login")
	fmt.Println(r.HostUnicode, r.RegistrableDomain, r.Has(urlconsent.CodeConfusable), r.MaxSeverity())
	r = urlconsent.Analyze("http://paypal.com@evil.example/")
	fmt.Println(r.HostASCII, r.RegistrableDomain, r.Has(urlconsent.CodeUserinfo))
	// Output:
	// аррӏе.com xn--80ak6aa92e.com true high
	// evil.example evil.example true
}
