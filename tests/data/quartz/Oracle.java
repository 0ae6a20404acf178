// Oracle for ejctl's Quartz cron layer (src/schedule/cron.rs): feeds every case of cases.tsv to
// real Quartz (Debian libquartz2-java, Quartz 2.3.2) and prints the next five fire instants.
//
// Run from the crate root (Java 11+ runs a single source file directly):
//   java -cp /usr/share/java/quartz2.jar:/usr/share/java/slf4j-api.jar \
//       tests/data/quartz/Oracle.java tests/data/quartz/cases.tsv > tests/data/quartz/oracle.tsv
//
// Input (cases.tsv): tab-separated `id  zone  start  expression`; `zone` is a java.util.TimeZone
// id, `start` an RFC 3339 UTC instant. Blank lines and lines starting with '#' are skipped.
// Output (oracle.tsv): `id  zone  start  expression  result`, one line per case, where result is
// up to five comma-separated instants (Instant.toString, UTC), followed by `END` when Quartz
// returns null (never fires again), or `ERR(message)` when Quartz rejects the expression.
import org.quartz.CronExpression;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;

public class Oracle {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] p = line.split("\t", -1);
            if (p.length != 4) {
                throw new IllegalArgumentException("expected 4 tab-separated columns: " + line);
            }
            String result;
            try {
                CronExpression ce = new CronExpression(p[3]);
                ce.setTimeZone(TimeZone.getTimeZone(p[1]));
                Date d = Date.from(Instant.parse(p[2]));
                List<String> out = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    d = ce.getNextValidTimeAfter(d);
                    if (d == null) {
                        out.add("END");
                        break;
                    }
                    out.add(d.toInstant().toString());
                }
                result = String.join(",", out);
            } catch (Exception e) {
                result = "ERR(" + String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' ') + ")";
            }
            System.out.println(String.join("\t", p[0], p[1], p[2], p[3], result));
        }
    }
}
