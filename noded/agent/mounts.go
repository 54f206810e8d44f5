package agent

import (
	"bufio"
	"io"
	"slices"
	"strings"
)

// pseudoFS are file system types that hold no data a job could need;
// partitions require mounts such as /data or /scratch, never these.
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "mqueue": true,
	"debugfs": true, "tracefs": true, "securityfs": true, "pstore": true, "bpf": true, "configfs": true,
	"fusectl": true, "hugetlbfs": true, "autofs": true, "binfmt_misc": true, "nsfs": true,
	"efivarfs": true, "selinuxfs": true, "rpc_pipefs": true, "devtmpfs": true,
}

// parseMounts reads /proc/self/mountinfo and returns the mount points of
// real file systems, sorted and without duplicates. Octal escapes in
// paths ("\040" for a space) are decoded.
func parseMounts(r io.Reader) []string {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := slices.Index(fields, "-")
		if sep < 5 || sep+1 >= len(fields) {
			continue
		}
		if pseudoFS[fields[sep+1]] {
			continue
		}
		out = append(out, unescapeMount(fields[4]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
