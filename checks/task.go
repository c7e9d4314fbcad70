package checks

import (
	"encoding/json"
	"fmt"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// BeforeTask is [Validator.Before] for a tools/call made as a task: its
// [finding.TaskSupport] verdict refuses a tool whose execution.taskSupport is
// absent or "forbidden" (the specification: a client must not ask for a
// task then), and passes "optional" and "required". def and args are as for
// [Validator.Before].
func (v *Validator) BeforeTask(name string, def, args json.RawMessage) []finding.Verdict {
	if tooldef.Absent(def) {
		return []finding.Verdict{notListed(finding.TaskSupport, name), notListed(finding.InputSchema, name)}
	}
	d, err := parseDef(def)
	if err != nil {
		return []finding.Verdict{unreadable(finding.TaskSupport, err), unreadable(finding.InputSchema, err)}
	}
	return []finding.Verdict{taskSupportAsTask(name, d.Execution), v.inputSchema(d.InputSchema, args)}
}

// taskSupportAsTask judges execution.taskSupport for a call made as a task.
func taskSupportAsTask(name string, execution json.RawMessage) finding.Verdict {
	refuse := func(why string) finding.Verdict {
		return finding.Verdict{Check: finding.TaskSupport, Status: finding.Refused,
			Message: `Tool "` + name + `" does not support task-based execution (` + why + `). Clients do not call it as a task.`}
	}
	var exec map[string]json.RawMessage
	if !tooldef.Absent(execution) && json.Unmarshal(execution, &exec) != nil {
		return refuse("execution is not an object")
	}
	raw := exec["taskSupport"]
	if tooldef.Absent(raw) {
		return refuse("no execution.taskSupport, which means forbidden")
	}
	var ts string
	if err := json.Unmarshal(raw, &ts); err != nil {
		return refuse(fmt.Sprintf("taskSupport is %s, an unknown value", compact(raw)))
	}
	switch ts {
	case "required", "optional":
		return finding.Verdict{Check: finding.TaskSupport, Status: finding.Pass, Message: fmt.Sprintf("taskSupport is %q; a task may be asked for", ts)}
	case "forbidden":
		return refuse(`taskSupport is "forbidden"`)
	}
	return refuse(fmt.Sprintf("taskSupport is %q, an unknown value", ts))
}
