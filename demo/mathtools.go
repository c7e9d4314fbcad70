package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type pairIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

type intPairIn struct {
	A int64 `json:"a" jsonschema:"the first integer"`
	B int64 `json:"b" jsonschema:"the second integer"`
}

type numbersIn struct {
	Numbers []float64 `json:"numbers" jsonschema:"the sample, at least one number"`
}

type statsOut struct {
	Count  int     `json:"count"`
	Sum    float64 `json:"sum"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev" jsonschema:"population standard deviation"`
}

type intIn struct {
	N int64 `json:"n" jsonschema:"a whole number"`
}

type unitsIn struct {
	Value float64 `json:"value"`
	From  string  `json:"from"`
	To    string  `json:"to"`
}

type rangeIn struct {
	Min int64 `json:"min" jsonschema:"the smallest allowed result"`
	Max int64 `json:"max" jsonschema:"the largest allowed result"`
}

type diceIn struct {
	Dice string `json:"dice" jsonschema:"dice notation such as 2d6, d20 or 3d8+2"`
}

func addMathTools(s *mcp.Server) {
	simple(s, &mcp.Tool{Name: "multiply", Description: "Multiply two numbers."},
		func(in pairIn) (string, error) { return fmt.Sprintf("%g × %g = %g", in.A, in.B, in.A*in.B), nil })
	simple(s, &mcp.Tool{Name: "divide", Description: "Divide a by b. Dividing by zero is a tool error (isError: true)."},
		divide)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "statistics",
		Description: "Count, sum, mean, median, min, max and standard deviation of a list of numbers, as structuredContent.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, statistics)
	simple(s, &mcp.Tool{Name: "is_prime", Description: "Tell whether a whole number is prime; if not, name its smallest factor."},
		isPrime)
	simple(s, &mcp.Tool{Name: "fibonacci", Description: "The first n Fibonacci numbers (n from 1 to 93)."},
		fibonacci)
	simple(s, &mcp.Tool{Name: "gcd_lcm", Description: "Greatest common divisor and least common multiple of two integers."},
		gcdLCM)
	simple(s, &mcp.Tool{Name: "to_roman", Description: "Write a number from 1 to 3999 in Roman numerals."},
		func(in intIn) (string, error) { return toRoman(in.N) })
	simple(s, &mcp.Tool{
		Name:        "convert_units",
		Description: "Convert lengths (mm, cm, m, km, in, ft, mi), masses (g, kg, lb, oz) and temperatures (c, f, k).",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "value": {"type": "number"},
    "from": {"type": "string", "enum": ["mm", "cm", "m", "km", "in", "ft", "mi", "g", "kg", "lb", "oz", "c", "f", "k"]},
    "to": {"type": "string", "enum": ["mm", "cm", "m", "km", "in", "ft", "mi", "g", "kg", "lb", "oz", "c", "f", "k"]}
  },
  "required": ["value", "from", "to"]
}`),
	}, convertValue)
	simple(s, &mcp.Tool{Name: "random_int", Description: "A random integer between min and max, inclusive."},
		randomInt)
	simple(s, &mcp.Tool{Name: "roll_dice", Description: "Roll dice in tabletop notation: 2d6, d20, 3d8+2, 4d6-1."},
		func(in diceIn) (string, error) { return rollDice(in.Dice) })
}

// convertValue converts in.Value from unit in.From to unit in.To.
func convertValue(in unitsIn) (string, error) {
	v, err := convertUnits(in.Value, in.From, in.To)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%g %s = %.6g %s", in.Value, in.From, v, in.To), nil
}

// randomInt answers a random integer from in.Min to in.Max, inclusive.
func randomInt(in rangeIn) (string, error) {
	if in.Min > in.Max {
		return "", fmt.Errorf("min (%d) is greater than max (%d)", in.Min, in.Max)
	}
	span := uint64(in.Max-in.Min) + 1 // 0 when the range is all of int64
	if span == 0 {
		return strconv.FormatInt(int64(rand.Uint64()), 10), nil
	}
	return strconv.FormatInt(in.Min+int64(rand.Uint64N(span)), 10), nil
}

// divide answers in.A ÷ in.B; dividing by zero is an error.
func divide(in pairIn) (string, error) {
	if in.B == 0 {
		return "", errors.New("division by zero")
	}
	return fmt.Sprintf("%g ÷ %g = %g", in.A, in.B, in.A/in.B), nil
}

// statistics describes in.Numbers, as text and as structured content.
func statistics(_ context.Context, _ *mcp.CallToolRequest, in numbersIn) (*mcp.CallToolResult, *statsOut, error) {
	if len(in.Numbers) == 0 {
		return nil, nil, errors.New("numbers is empty: give at least one number")
	}
	out := describe(in.Numbers)
	return text("n=%d mean=%g median=%g min=%g max=%g sd=%.4g", out.Count, out.Mean, out.Median, out.Min, out.Max, out.StdDev), out, nil
}

// isPrime tells whether in.N is prime, naming its smallest factor when it is not.
func isPrime(in intIn) (string, error) {
	if in.N < 2 {
		return fmt.Sprintf("%d is not prime", in.N), nil
	}
	if big.NewInt(in.N).ProbablyPrime(20) {
		return fmt.Sprintf("%d is prime", in.N), nil
	}
	for f := int64(2); f*f <= in.N; f++ {
		if in.N%f == 0 {
			return fmt.Sprintf("%d is not prime: %d × %d", in.N, f, in.N/f), nil
		}
	}
	return fmt.Sprintf("%d is not prime", in.N), nil
}

// fibonacci lists the first in.N Fibonacci numbers (1 to 93, the most a uint64 holds).
func fibonacci(in intIn) (string, error) {
	if in.N < 1 || in.N > 93 {
		return "", fmt.Errorf("n must be 1 to 93 (got %d)", in.N)
	}
	seq := make([]string, in.N)
	var a, b uint64 = 0, 1
	for i := range seq {
		seq[i] = strconv.FormatUint(a, 10)
		a, b = b, a+b
	}
	return strings.Join(seq, ", "), nil
}

// gcdLCM answers the greatest common divisor and least common multiple of in.A and in.B.
func gcdLCM(in intPairIn) (string, error) {
	g := new(big.Int).GCD(nil, nil, big.NewInt(abs(in.A)), big.NewInt(abs(in.B)))
	if g.Sign() == 0 {
		return "gcd(0, 0) = 0, lcm(0, 0) = 0", nil
	}
	l := new(big.Int).Mul(big.NewInt(abs(in.A)), big.NewInt(abs(in.B)))
	l.Quo(l, g)
	return fmt.Sprintf("gcd(%d, %d) = %s, lcm = %s", in.A, in.B, g, l), nil
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// describe summarises a non-empty sample.
func describe(xs []float64) *statsOut {
	s := slices.Clone(xs)
	slices.Sort(s)
	out := &statsOut{Count: len(s), Min: s[0], Max: s[len(s)-1]}
	for _, x := range s {
		out.Sum += x
	}
	out.Mean = out.Sum / float64(len(s))
	if len(s)%2 == 1 {
		out.Median = s[len(s)/2]
	} else {
		out.Median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	var ss float64
	for _, x := range s {
		ss += (x - out.Mean) * (x - out.Mean)
	}
	out.StdDev = math.Sqrt(ss / float64(len(s)))
	return out
}

// toRoman writes n (1 to 3999) in Roman numerals.
func toRoman(n int64) (string, error) {
	if n < 1 || n > 3999 {
		return "", fmt.Errorf("n must be 1 to 3999 to be written in Roman numerals (got %d)", n)
	}
	vals := []int64{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String(), nil
}

// convertUnits converts v between two units of the same dimension.
func convertUnits(v float64, from, to string) (float64, error) {
	temp := func(u string) bool { return u == "c" || u == "f" || u == "k" }
	if temp(from) || temp(to) {
		if !temp(from) || !temp(to) {
			return 0, fmt.Errorf("cannot convert %s to %s", from, to)
		}
		c := v
		switch from {
		case "f":
			c = (v - 32) * 5 / 9
		case "k":
			c = v - 273.15
		}
		switch to {
		case "f":
			return c*9/5 + 32, nil
		case "k":
			return c + 273.15, nil
		}
		return c, nil
	}
	// Factors to the base unit of each dimension: metres and grams.
	length := map[string]float64{"mm": 0.001, "cm": 0.01, "m": 1, "km": 1000, "in": 0.0254, "ft": 0.3048, "mi": 1609.344}
	mass := map[string]float64{"g": 1, "kg": 1000, "lb": 453.59237, "oz": 28.349523125}
	for _, dim := range []map[string]float64{length, mass} {
		f, ok1 := dim[from]
		t, ok2 := dim[to]
		if ok1 && ok2 {
			return v * f / t, nil
		}
	}
	return 0, fmt.Errorf("cannot convert %s to %s", from, to)
}

// rollDice rolls dice written like 3d8+2 and shows each die.
func rollDice(notation string) (string, error) {
	m := regexp.MustCompile(`^\s*(\d*)d(\d+)\s*([+-]\s*\d+)?\s*$`).FindStringSubmatch(strings.ToLower(notation))
	if m == nil {
		return "", fmt.Errorf("not dice notation: %q (try 2d6, d20 or 3d8+2)", notation)
	}
	count := 1
	if m[1] != "" {
		count, _ = strconv.Atoi(m[1])
	}
	sides, _ := strconv.Atoi(m[2])
	if count < 1 || count > 100 || sides < 2 || sides > 1000 {
		return "", fmt.Errorf("roll 1 to 100 dice of 2 to 1000 sides (got %dd%d)", count, sides)
	}
	mod := 0
	if m[3] != "" {
		mod, _ = strconv.Atoi(strings.ReplaceAll(m[3], " ", ""))
	}
	rolls := make([]string, count)
	total := mod
	for i := range rolls {
		r := 1 + rand.IntN(sides)
		total += r
		rolls[i] = strconv.Itoa(r)
	}
	s := fmt.Sprintf("%s → [%s]", strings.TrimSpace(notation), strings.Join(rolls, ", "))
	if mod != 0 {
		s += fmt.Sprintf(" %+d", mod)
	}
	return fmt.Sprintf("%s = %d", s, total), nil
}
