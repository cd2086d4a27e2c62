import { sql, type Kysely } from 'kysely';

/**
 * reserve_quota_unit (see 20261122020000_create_reserve_quota_unit and 20261125400300) answers `again`
 * when it took nothing but the counter it read afterwards has room: the counter row was created, or
 * units were freed, between its UPDATE and its read (each statement of a READ COMMITTED transaction
 * sees what was committed when it ran). It answered `refused` then, with figures that had room: the
 * first reservations of a workspace or of a month, made at once, could be refused with quota left.
 * The caller tries again. Only the outcome's choice changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP PROCEDURE IF EXISTS reserve_quota_unit`.execute(db);
  await sql`
    CREATE PROCEDURE reserve_quota_unit(
      IN p_request_id VARCHAR(40),
      IN p_workspace_id VARCHAR(32),
      IN p_period_start DATE,
      IN p_expires_at DATETIME(3),
      IN p_limit INT UNSIGNED,
      IN p_now DATETIME(3)
    )
    BEGIN
      DECLARE v_taken INT DEFAULT 0;
      DECLARE v_used INT UNSIGNED DEFAULT NULL;
      DECLARE v_reserved INT UNSIGNED DEFAULT NULL;
      DECLARE v_outcome VARCHAR(16);
      DECLARE EXIT HANDLER FOR 1062
      BEGIN
        ROLLBACK;
        SELECT 'seen' AS outcome, NULL AS used, NULL AS reserved;
      END;
      DECLARE EXIT HANDLER FOR SQLEXCEPTION
      BEGIN
        ROLLBACK;
        RESIGNAL;
      END;
      -- A missing counter row leaves the figures NULL (and no warning behind).
      DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_used = NULL;

      START TRANSACTION;
      UPDATE usage_counters
        SET reserved = reserved + 1
        WHERE workspace_id = p_workspace_id AND period_start = p_period_start AND used + reserved + 1 <= p_limit;
      SET v_taken = ROW_COUNT();
      IF v_taken > 0 THEN
        INSERT INTO usage_reservations (request_id, workspace_id, period_start, state, expires_at)
          VALUES (p_request_id, p_workspace_id, p_period_start, 'reserved', p_expires_at);
      END IF;
      SELECT used, reserved INTO v_used, v_reserved
        FROM usage_counters
        WHERE workspace_id = p_workspace_id AND period_start = p_period_start;
      COMMIT;

      IF v_taken > 0 THEN
        SET v_outcome = 'reserved';
      ELSEIF v_used IS NULL THEN
        SET v_outcome = 'no_counter';
      ELSEIF EXISTS (SELECT 1 FROM usage_reservations WHERE request_id = p_request_id) THEN
        SET v_outcome = 'seen';
      ELSEIF v_used + v_reserved + 1 <= p_limit THEN
        SET v_outcome = 'again';
      ELSEIF EXISTS (
        SELECT 1 FROM usage_reservations
          WHERE state = 'reserved' AND expires_at < p_now AND workspace_id = p_workspace_id
      ) OR EXISTS (
        SELECT 1 FROM quota_allowances
          WHERE state = 'held' AND expires_at < p_now AND workspace_id = p_workspace_id
      ) THEN
        SET v_outcome = 'expired';
      ELSE
        SET v_outcome = 'refused';
      END IF;
      SELECT v_outcome AS outcome, v_used AS used, v_reserved AS reserved;
    END
  `.execute(db);
}

/** Back to the procedure as 20261125400300 made it: its own `up`, rather than a copy of it. */
export { up as down } from './20261125400300_replace_reserve_quota_unit_for_allowances.js';
