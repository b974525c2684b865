package dev.seams.mutants;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import dev.seams.stand.JvmContainer;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Removes the containers a mutant's build left behind (label {@value JvmContainer#LABEL}{@code =true}: with Ryuk
 * off, a build killed at its time bound cannot remove its own stand), so that the next mutant's stand starts on a
 * clean engine: those whose owner ({@value JvmContainer#OWNER_LABEL}, the pid of the process that started them) is
 * gone, never a stand a person or another run still has up. Only the mutation tier calls it, between builds, when no
 * stand of its own runs.
 */
final class StandLeftovers {

    private static final Logger LOG = LoggerFactory.getLogger(StandLeftovers.class);

    private StandLeftovers() {
    }

    static void remove() {
        DockerClient docker = DockerClientFactory.instance().client();
        List<Container> left = docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(JvmContainer.LABEL, "true")).exec();
        for (Container c : left) {
            if (ownerAlive(c.getLabels())) {
                continue;
            }
            LOG.warn("removing container {} {} left by a run that is gone", c.getId().substring(0, 12), List.of(c.getNames()));
            docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
        }
    }

    /** @return whether the container's owner process (its {@value JvmContainer#OWNER_LABEL}) still runs on this host */
    static boolean ownerAlive(Map<String, String> labels) {
        String owner = labels == null ? null : labels.get(JvmContainer.OWNER_LABEL);
        if (owner == null || !owner.matches("\\d{1,18}")) {
            return false;
        }
        return ProcessHandle.of(Long.parseLong(owner)).map(ProcessHandle::isAlive).orElse(false);
    }
}
