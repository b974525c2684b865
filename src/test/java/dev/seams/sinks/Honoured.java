package dev.seams.sinks;

import dev.seams.report.NotApplicableException;
import dev.seams.sink.Batching;
import dev.seams.sink.Rejects;
import dev.seams.sink.SinkFaults;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import java.util.Objects;
import java.util.Set;

/**
 * Which of a run's options a sink under test other than ds-sink can honour, by its traits (docs/sinks.md "The
 * contract"): the group, the tables' database, the start, caught-up or a set time always; the rest only with the trait
 * that carries it.
 */
final class Honoured {

    private Honoured() {
    }

    /**
     * @param sink     the sink's name, for the reason
     * @param traits   what it has
     * @param options  the run's options
     * @param defaults the options of a plain run of the same mode ({@link SinkOptions#defaults})
     * @throws NotApplicableException for the first option it cannot honour, naming the trait it lacks
     */
    static void check(String sink, Set<SinkTrait> traits, SinkOptions options, SinkOptions defaults) {
        if (options.mode() != SinkMode.TOTALS) {
            need(sink, traits, SinkTrait.DEDUP_DEMO, "the run reads " + options.mode().topic() + " in mode " + options.mode().cliName());
        }
        if (!options.source().isolation().equals(defaults.source().isolation())) {
            need(sink, traits, SinkTrait.ISOLATION_CHOICE, "the run reads " + options.source().isolation());
        }
        Rejects rejects = options.rejects();
        if (!rejects.dlqTopic().equals(defaults.rejects().dlqTopic())) {
            need(sink, traits, SinkTrait.DEAD_LETTER_QUEUE, "the run reads its rejects from " + rejects.dlqTopic());
        }
        if (!options.faults().equals(SinkFaults.NONE)) {
            need(sink, traits, SinkTrait.DS_SINK_OPTIONS, "the run is a negative control: " + options.faults());
        }
        if (rejects.customers() != null || rejects.maxValueBytes() != defaults.rejects().maxValueBytes()) {
            need(sink, traits, SinkTrait.DS_SINK_OPTIONS, "the run rejects by ds-sink's opt-in rules: customers "
                    + rejects.customers() + ", max value bytes " + rejects.maxValueBytes());
        }
        if (!options.batching().equals(Batching.PER_POLL) || !options.commitInterval().equals(defaults.commitInterval())
                || options.membership().instanceId() != null || options.membership().sessionTimeout() != null
                || !Objects.equals(options.source().kafkaConfig(), defaults.source().kafkaConfig())) {
            need(sink, traits, SinkTrait.DS_SINK_OPTIONS, "the run sets " + options.batching() + ", commit interval "
                    + options.commitInterval() + ", " + options.membership() + ", " + options.source().kafkaConfig());
        }
        if (options.window().untilIdle() != null) {
            throw new NotApplicableException(sink + ": no idle window (it runs until caught up or for a set time), "
                    + "the run waits until idle for " + options.window().untilIdle());
        }
    }

    private static void need(String sink, Set<SinkTrait> traits, SinkTrait trait, String why) {
        if (!traits.contains(trait)) {
            throw trait.missingFrom(sink, why);
        }
    }
}
