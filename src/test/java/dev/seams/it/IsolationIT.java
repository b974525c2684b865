package dev.seams.it;

import dev.seams.fixture.SinkCli;
import dev.seams.fixture.StandContext;
import dev.seams.project.Project;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkMode;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.JvmProcess;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sink's read_committed contract (G15; source section "Где кончается транзакция Kafka"): the isolation level the
 * running sink's consumer logged, by default and with {@code --isolation read_uncommitted} (the control: its own
 * database and group), two sink processes side by side.
 */
@ExtendWith(StandContext.Resolver.class)
class IsolationIT {

    private static final Pattern ISOLATION = Pattern.compile("isolation\\.level = (\\S+)");
    /** The control sink's own database (it reads aborted data by design). */
    private static final String CONTROL_DATABASE = RunNames.of("g15_control");

    /**
     * G15 and its control in one test, their two sink processes running side by side: the contract
     * (no --isolation flag) in this entry, the control (--isolation read_uncommitted) in
     * G15[control: --isolation read_uncommitted].
     */
    @Test
    @Claim(id = "G15", title = "read_committed is the contract", exercises = {"sink/Sink", "cli/SinkCommand"})
    void g15IsolationOfTheRunningConsumer(ClaimEvidence e, StandContext s) {
        SinkUnderTest.requireDsSink("G15 reads the isolation level ds-sink's consumer logs; B1 measures any sink's by what it writes");
        JvmProcess contract = startSink(s, null);
        JvmProcess control = startSink(s, "read_uncommitted");
        recordIsolation(e, contract, null);
        e.note("Read from the ConsumerConfig values the running sink's KafkaConsumer logged when it was created "
                + "(the sink CLI run as its own process, with no --isolation flag: its default), not from a constant.");
        ClaimEvidence c = e.part("control: --isolation read_uncommitted");
        recordIsolation(c, control, "read_uncommitted");
        c.note("Control: the same reader reports the other level when the flag asks for it, so G15 reads the live value. "
                + "This sink reads aborted data by design: it writes into its own database g15_control and group "
                + "seams-g15-control, never the stand's tables or ds-sink. It ran beside G15's sink.");
    }

    /**
     * Starts the sink CLI as its own process, until caught up.
     *
     * @param flag the {@code --isolation} value to pass, or null for the default (the contract)
     */
    private static JvmProcess startSink(StandContext s, String flag) {
        Endpoints stand = s.endpoints();
        ClickHouseTarget target = stand.clickhouseTarget();
        List<String> args = new ArrayList<>();
        if (flag != null) {
            ClickHouse ch = s.ch();
            ch.execute("CREATE DATABASE IF NOT EXISTS " + CONTROL_DATABASE);
            for (String table : List.of("raw_totals", "customer_totals")) {
                ch.execute("CREATE TABLE IF NOT EXISTS " + CONTROL_DATABASE + "." + table + " AS " + target.database() + "." + table);
            }
            target = new ClickHouseTarget(target.endpoint(), target.user(), target.password(), CONTROL_DATABASE);
            args.addAll(List.of("--isolation", flag, "--group", RunNames.of("seams-g15-control")));
        }
        args.addAll(0, List.of("sink", "--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", target.endpoint(), "--clickhouse-user", target.user(), "--clickhouse-password", target.password(),
                "--clickhouse-database", target.database(), "--until-caught-up"));
        args.addAll(SinkCli.standOptions(stand, SinkMode.TOTALS, args));
        JvmProcess sink = new JvmProcess(flag == null ? "sink-g15" : "sink-g15-control", "dev.seams.cli.SeamsCli", args,
                Project.root().resolve("target/stand-logs"));
        sink.start();
        return sink;
    }

    /** Waits for the sink process to end and records the isolation level its live consumer logged. */
    private static void recordIsolation(ClaimEvidence e, JvmProcess sink, String flag) {
        int exit = sink.awaitExit(Duration.ofMinutes(3));
        String output = sink.output();
        Matcher m = ISOLATION.matcher(output);
        e.check("sink_exit_status", exit).isZero("the sink CLI process ends normally");
        e.check("live_consumer_isolation_level", m.find() ? m.group(1) : "not logged")
                .isEqualTo(flag == null ? "read_committed" : flag, flag == null
                        ? "isolation.level of the running sink's consumer, by default"
                        : "isolation.level of the running sink's consumer with --isolation " + flag);
        e.figure("summary", output.lines().filter(l -> l.startsWith("sink: ")).findFirst().orElse("no summary line"));
    }
}
