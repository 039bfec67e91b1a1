//go:build !unix

package cmd

import "os"

// watchHangup does nothing where there is no poll(2): SIGHUP is all
// elicit has there.
func watchHangup(*os.File, func()) (stop func()) { return func() {} }
