/// Runs scheduling whose arguments the caller has already made valid (a delay that is not
/// negative, an instant not before `now`). A failure there is a bug in the caller: it stops the
/// program with the kernel's message instead of being dropped, as `try?` would drop it.
@discardableResult
public func checkedScheduling<T>(_ body: () throws -> T) -> T {
  do {
    return try body()
  } catch {
    preconditionFailure("an event that cannot fail to be scheduled was refused: \(error)")
  }
}
