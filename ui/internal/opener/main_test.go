package opener

import (
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

func TestMain(m *testing.M) { uitest.Main(m) }
