// OPTIONS: /help
// `/help` (also `-help`, `-?`, `--help`) prints the option list and exits 0, whatever else
// the command line says.
