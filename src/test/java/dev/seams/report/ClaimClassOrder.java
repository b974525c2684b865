package dev.seams.report;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;

/**
 * The order claim classes run in, the same on every machine: by {@link Order} (classes without one in the middle,
 * {@link Order#DEFAULT}), then by class name. JUnit's own {@code ClassOrderer.OrderAnnotation} keeps the discovery
 * order among classes of equal order, and failsafe discovers them in the file system's directory order, which differs
 * between clones on different machines: a claim that depends on what an earlier class left on the shared stand (it must
 * not, and such a dependency is a defect) would then pass on one machine and fail in CI. Set in
 * junit-platform.properties.
 */
public class ClaimClassOrder implements ClassOrderer {

    private static final Comparator<ClassDescriptor> ORDER = Comparator
            .comparingInt((ClassDescriptor d) -> d.findAnnotation(Order.class).map(Order::value).orElse(Order.DEFAULT))
            .thenComparing(d -> d.getTestClass().getName());

    /** Sorts the classes by {@link Order} value, then by fully qualified name. */
    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(ORDER);
    }
}
