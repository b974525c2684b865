package dev.seams.faults;

import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.report.ClaimCatalog;
import dev.seams.report.ClaimEvidence;
import java.util.ArrayList;
import java.util.List;

/** The injection points of one fault of the matrix ({@link FaultMatrix}), each recorded as its own entry. */
final class FaultPoints {

    private FaultPoints() {
    }

    /**
     * Records each injection as its own entry {@code <claim>[<fault>@N%]} (its proof, the seconds held, the recovery
     * after its heal) and a table of them in {@code e}; a point whose proof failed, that landed off its point or after
     * the load, or that did not cause what the plan says it must (retries, a stall) is UNVERIFIED with that reason,
     * and so is the fault's entry.
     *
     * @param e     the fault's entry
     * @param plan  what was injected and what it must cause
     * @param shots the injections, in order
     */
    static void record(ClaimEvidence e, FaultMatrix.Plan plan, List<Shot<FaultMatrix.Injected>> shots) {
        List<List<Object>> rows = new ArrayList<>();
        List<String> unproven = new ArrayList<>();
        for (Shot<FaultMatrix.Injected> shot : shots) {
            FaultMatrix.Injected in = shot.result();
            ClaimEvidence p = e.part(plan.name() + shot.label());
            p.figure("load_progress_at_injection", FaultSchedule.percent(shot.progress()));
            p.figure("proof", in.proof().evidence());
            in.proof().measured().forEach(p::figure);
            p.figure("seconds_fault_held", in.heldSeconds());
            p.figure("sink_retries_logged_during_fault", in.retries());
            p.figure("seconds_to_sink_caught_up_after_heal", in.sinkRecoverySeconds());
            p.figure("seconds_to_streams_caught_up_after_heal", in.streamsRecoverySeconds());
            if (plan.stalledGroup() != null) {
                p.figure("lag_" + plan.stalledGroup() + "_at_injection", in.lagAtInjection());
                p.figure("lag_" + plan.stalledGroup() + "_before_heal", in.lagBeforeHeal());
            }
            p.note("Reconciliation with PG runs once the whole load settled: see the entry " + e.id() + ".");
            String missing = unproven(plan, shot);
            if (missing != null) {
                p.unverified(missing);
                unproven.add(shot.label() + ": " + missing);
            }
            rows.add(List.of(shot.label(), FaultSchedule.percent(shot.progress()), in.proof().evidence(), in.heldSeconds(),
                    in.retries(), in.sinkRecoverySeconds(), in.streamsRecoverySeconds()));
        }
        e.table("Injections of " + plan.name() + " (each its own entry " + ClaimCatalog.claimId(e.id()) + "[" + plan.name() + "@N%])",
                List.of("point",
                "load committed in PG", "proof", "seconds held", "sink retries", "s to sink caught up", "s to ds-streams caught up"), rows);
        if (!unproven.isEmpty()) {
            e.unverified(String.join("; ", unproven));
        }
    }

    /**
     * @return why the shot does not prove its point (its proof failed, it landed off its point or after the load, the
     *     fault said nothing was at stake, or it did not cause the retries or the stall the plan requires), or {@code null}
     */
    static String unproven(FaultMatrix.Plan plan, Shot<FaultMatrix.Injected> shot) {
        FaultMatrix.Injected in = shot.result();
        String missing = null;
        if (!in.proof().tookEffect()) {
            missing = "the fault did not take effect: " + in.proof().evidence();
        } else if (!shot.midLoad()) {
            missing = "the injection landed after the whole load was committed in PG";
        } else if (!shot.onPoint()) {
            missing = "the injection " + shot.offPoint() + " (the previous one was still held)";
        } else if (in.nothingAtStake().isPresent()) {
            missing = "nothing was at stake while the fault held: " + in.nothingAtStake().get();
        } else if (plan.retriesExpected() && in.retries() == 0) {
            missing = "the sink logged no failed write while the fault was on: the fault did not reach it";
        } else if (plan.stalledGroup() != null && in.lagBeforeHeal() <= in.lagAtInjection()) {
            missing = plan.stalledGroup() + "'s lag did not grow while the fault was on (" + in.lagAtInjection() + " -> "
                    + in.lagBeforeHeal() + "): the fault did not stall it";
        }
        return missing;
    }
}
