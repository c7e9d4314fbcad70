package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// parser reads one command line into a config, through a tree of cobra
// commands whose flags are bound into it.
type parser struct {
	c *config
	// err is the first error of a flag's value, kept as it was made
	// (a usage error) rather than as the flag library words it.
	err error
}

// parseArgs reads the command line into a config, and checks that its
// parts go together. It reads nothing else: no file, no environment (see
// [resolve]). Flags may come before or after the command, and before "--";
// everything after "--" is the command of a stdio server.
func parseArgs(args []string) (*config, error) { return parseCommandLine(args, io.Discard) }

// parseCommandLine is [parseArgs], writing to out what the command line
// asks of the parser itself: help and shell completions, after which the
// config is done.
func parseCommandLine(args []string, out io.Writer) (*config, error) {
	p := &parser{c: &config{}}
	root := p.tree()
	root.SetArgs(commandFirst(args, root))
	root.SetOut(out)
	root.SetErr(io.Discard)
	cmd, err := root.ExecuteC()
	if cmd != nil && (cmd.Name() == cobra.ShellCompRequestCmd || cmd.Name() == cobra.ShellCompNoDescRequestCmd) {
		p.c.done = true
		return p.c, nil
	}
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	return p.c, nil
}

// tree is the command line: the terminal UI at the root and a subcommand
// per command, each with its own flags, and help.
func (p *parser) tree() *cobra.Command {
	root := p.command("", lookupCommand(""))
	root.Use = "mcpwitness"
	root.SilenceErrors, root.SilenceUsage = true, true
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpFunc(p.help)
	root.SetFlagErrorFunc(p.flagError)
	colorFlag(flags{fs: root.PersistentFlags(), c: p.c, group: "Global"})
	for _, c := range commands() {
		root.AddCommand(p.command(c.name, c))
	}
	root.AddCommand(&cobra.Command{
		Use:                "help [COMMAND]",
		Short:              "more on one command",
		Args:               cobra.ArbitraryArgs,
		DisableFlagParsing: true,
		RunE:               p.helpCommand,
	})
	return root
}

// command is the cobra command of c, named name ("" for the root).
func (p *parser) command(name string, c command) *cobra.Command {
	long, example := splitHelp(c.help)
	cmd := &cobra.Command{
		Use:     name,
		Long:    long,
		Example: example,
		Args:    cobra.ArbitraryArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return p.take(name, cmd, args) },
	}
	cmd.Flags().SortFlags = false
	c.flags(flags{fs: cmd.Flags(), c: p.c})
	return cmd
}

// take records the command and its arguments, the server's command after
// "--", and checks them.
func (p *parser) take(name string, cmd *cobra.Command, args []string) error {
	c := p.c
	c.cmd, c.args = name, args
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		c.args, c.target.Command = args[:dash], args[dash:]
		if len(c.target.Command) == 0 {
			return usagef("nothing after --: give the server's command, e.g. -- node server.js")
		}
	}
	if name == "" && len(c.args) > 0 {
		return usagef("unknown command %q; commands are %s (or none, for the terminal UI)", c.args[0], strings.Join(commandNames(), ", "))
	}
	if c.version {
		return nil
	}
	return c.check()
}

// helpCommand is help [COMMAND]: the help of the root or of COMMAND.
func (p *parser) helpCommand(cmd *cobra.Command, args []string) error {
	root := cmd.Root()
	name := ""
	for i := 0; i < len(args) && name == ""; i++ {
		switch {
		case strings.HasPrefix(args[i], "-") && takesValue(root, args[i]):
			i++ // the flag's value
		case !strings.HasPrefix(args[i], "-"):
			name = args[i]
		}
	}
	if name == "" {
		p.help(root, nil)
		return nil
	}
	for _, sub := range root.Commands() {
		if sub.Name() == name && sub != cmd {
			p.help(sub, nil)
			return nil
		}
	}
	return usagef("no help for %q; commands are %s", name, strings.Join(commandNames(), ", "))
}

// help writes cmd's help: its explanation, its flags by group, and its
// examples and exit codes.
func (p *parser) help(cmd *cobra.Command, _ []string) {
	w := cmd.OutOrStdout()
	fmt.Fprint(w, cmd.Long)
	cmd.InheritedFlags() // merges the root's flags into cmd.Flags()
	for _, g := range helpGroups {
		fs := pflag.NewFlagSet(g, pflag.ContinueOnError)
		fs.SortFlags = false
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && flagGroup(f) == g {
				fs.AddFlag(f)
			}
		})
		if !fs.HasFlags() {
			continue
		}
		title := g
		if title == "" {
			title = "Flags"
		}
		fmt.Fprintf(w, "\n%s:\n%s", title, fs.FlagUsagesWrapped(0))
	}
	if cmd.Example != "" {
		fmt.Fprint(w, "\n", cmd.Example)
	}
	p.c.done = true
}

func flagGroup(f *pflag.Flag) string {
	if g := f.Annotations[groupKey]; len(g) > 0 {
		return g[0]
	}
	return ""
}

// splitHelp splits a command's help where its examples (or, without
// examples, its exit codes) begin: the explanation comes before the
// flags, the rest after.
func splitHelp(help string) (long, rest string) {
	for _, mark := range []string{"\nExample", "\nExit"} {
		if i := strings.Index(help, mark); i >= 0 {
			return help[:i], help[i+1:]
		}
	}
	return help, ""
}

// flagError words an error of the flags of cmd: a flag it does not take
// names the flag, the command, and the commands that take it.
func (p *parser) flagError(cmd *cobra.Command, err error) error {
	var (
		bad     *pflag.InvalidValueError
		missing *pflag.ValueRequiredError
		unknown *pflag.NotExistError
	)
	switch {
	case p.err != nil:
		return p.err
	case errors.As(err, &bad):
		p.err = bad.Unwrap()
		var u usageError
		if !errors.As(p.err, &u) {
			p.err = usagef("--%s: %v", bad.GetFlag().Name, p.err)
		}
	case errors.As(err, &missing):
		p.err = usagef("--%s needs a value", missing.GetFlag().Name)
	case errors.As(err, &unknown):
		p.err = notAFlagOf(cmd, unknown)
	default:
		p.err = usageError{err.Error()}
	}
	return p.err
}

// notAFlagOf is the usage error of a flag that cmd does not take.
func notAFlagOf(cmd *cobra.Command, e *pflag.NotExistError) error {
	name := "--" + e.GetSpecifiedName()
	lookup := func(c *cobra.Command) *pflag.Flag { return c.Flags().Lookup(e.GetSpecifiedName()) }
	if s := e.GetSpecifiedShortnames(); s != "" {
		name = "-" + s[:1]
		lookup = func(c *cobra.Command) *pflag.Flag { return c.Flags().ShorthandLookup(s[:1]) }
	}
	what, help := "the terminal UI", "mcpwitness --help"
	if cmd.HasParent() {
		what, help = cmd.Name(), "mcpwitness help "+cmd.Name()
	}
	var takers []string
	for _, c := range append([]*cobra.Command{cmd.Root()}, cmd.Root().Commands()...) {
		if c != cmd && lookup(c) != nil {
			takers = append(takers, either(c.HasParent(), c.Name(), "the terminal UI"))
		}
	}
	switch {
	case len(takers) == 0:
		return usagef("unknown flag %s for %s; see %s", name, what, help)
	case len(takers) > 3:
		return usagef("%s is not a flag of %s; see %s", name, what, help)
	}
	return usagef("%s is not a flag of %s (only of %s); see %s", name, what, strings.Join(takers, ", "), help)
}

func either(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// commandFirst moves the command's name to the front of args, so that
// flags may come before it as well as after: the first argument before
// "--" that is neither a flag nor a flag's value.
func commandFirst(args []string, root *cobra.Command) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args
		case strings.HasPrefix(a, "-") && a != "-":
			if takesValue(root, a) {
				i++
			}
		default:
			if i == 0 || !isCommand(a) {
				return args
			}
			return slices.Concat([]string{a}, args[:i], args[i+1:])
		}
	}
	return args
}

// takesValue reports whether the flag a (without "=value") takes the
// next argument as its value in any command.
func takesValue(root *cobra.Command, a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--"):
			f = c.Flags().Lookup(a[2:])
		case len(a) == 2:
			f = c.Flags().ShorthandLookup(a[1:])
		}
		if f != nil {
			return f.NoOptDefVal == ""
		}
	}
	return false
}

// colorFlag is --color, of every command.
func colorFlag(f flags) {
	f.value("color", "", "WHEN", "auto (colour on a terminal, unless NO_COLOR is set), always\nor never", func(c *config, v string) error {
		if !slices.Contains([]string{"auto", "always", "never"}, v) {
			return usagef("--color wants auto, always or never, not %q", v)
		}
		c.color = v
		return nil
	})
}

// runCompletion writes the shell completion script of the command line:
// mcpwitness completion bash|zsh|fish|powershell.
func runCompletion(_ context.Context, a *app) error {
	root := (&parser{c: &config{}}).tree()
	var err error
	switch a.cfg.args[0] {
	case "bash":
		err = root.GenBashCompletionV2(a.stdout, true)
	case "zsh":
		err = root.GenZshCompletion(a.stdout)
	case "fish":
		err = root.GenFishCompletion(a.stdout, true)
	case "powershell":
		err = root.GenPowerShellCompletionWithDesc(a.stdout)
	}
	return err
}

// checkCompletionArgs checks that completion names one shell.
func (c *config) checkCompletionArgs() error {
	if len(c.args) != 1 || !slices.Contains([]string{"bash", "zsh", "fish", "powershell"}, c.args[0]) {
		return usagef("completion needs one shell: mcpwitness completion bash|zsh|fish|powershell")
	}
	return nil
}
