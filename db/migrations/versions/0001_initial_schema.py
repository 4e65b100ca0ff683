"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22

All tables of DESIGN §3 in one piece (generated from db/models.py, then reviewed).
"""

from __future__ import annotations

import pgvector.sqlalchemy
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # pgvector first: agent_knowledge and curriculum_chunks carry vector columns.
    op.execute('CREATE EXTENSION IF NOT EXISTS vector')
    op.create_table('schools',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('bundesland', sa.String(length=60), nullable=False),
    sa.Column('schulform', sa.String(length=60), nullable=False),
    sa.Column('settings', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('classes',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('school_id', sa.UUID(), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('klassenstufe', sa.Integer(), nullable=False),
    sa.Column('schuljahr', sa.String(length=9), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['school_id'], ['schools.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('school_id', 'name', 'schuljahr', name='uq_classes_name')
    )
    op.create_index(op.f('ix_classes_school_id'), 'classes', ['school_id'], unique=False)
    op.create_table('teachers',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('school_id', sa.UUID(), nullable=True),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('bundesland', sa.String(length=60), nullable=False),
    sa.Column('faecher', postgresql.ARRAY(sa.String(length=40)), nullable=False),
    sa.Column('role', sa.String(length=20), server_default='teacher', nullable=False),
    sa.Column('settings', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("role IN ('teacher', 'curator', 'product')", name='ck_teachers_role'),
    sa.ForeignKeyConstraint(['school_id'], ['schools.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('email')
    )
    op.create_index(op.f('ix_teachers_school_id'), 'teachers', ['school_id'], unique=False)
    op.create_table('agent_knowledge',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('agent_type', sa.String(length=40), nullable=False),
    sa.Column('scope_type', sa.String(length=10), nullable=False),
    sa.Column('scope_id', sa.UUID(), nullable=True),
    sa.Column('owner_id', sa.UUID(), nullable=True),
    sa.Column('fach', sa.String(length=40), nullable=False),
    sa.Column('thema', sa.String(length=200), nullable=True),
    sa.Column('knowledge_type', sa.String(length=20), nullable=False),
    sa.Column('content', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('quality_score', sa.Float(), server_default='0.5', nullable=False),
    sa.Column('times_used', sa.Integer(), server_default='0', nullable=False),
    sa.Column('source', sa.String(length=20), nullable=False),
    sa.Column('status', sa.String(length=10), server_default='active', nullable=False),
    sa.Column('shared_for_curation', sa.Boolean(), server_default='false', nullable=False),
    sa.Column('rating_count', sa.Integer(), server_default='0', nullable=False),
    sa.Column('external_id', sa.String(length=200), nullable=True),
    sa.Column('search_text', sa.Text(), nullable=True),
    sa.Column('embedding', pgvector.sqlalchemy.vector.VECTOR(dim=384), nullable=True),
    sa.Column('embedding_model', sa.String(length=120), nullable=True),
    sa.Column('fts', postgresql.TSVECTOR(), sa.Computed("setweight(to_tsvector('german', coalesce(thema, '')), 'A') || setweight(to_tsvector('german', coalesce(description, '')), 'B') || setweight(to_tsvector('german', coalesce(search_text, '')), 'C')", persisted=True), nullable=False),
    sa.Column('revision', sa.Integer(), server_default='1', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("(scope_type = 'global') = (scope_id IS NULL)", name='ck_ak_scope_id'),
    sa.CheckConstraint("knowledge_type IN ('generic', 'example', 'good_practice', 'preference', 'operator_list', 'note')", name='ck_ak_knowledge_type'),
    sa.CheckConstraint("scope_type IN ('teacher', 'class', 'school', 'global')", name='ck_ak_scope_type'),
    sa.CheckConstraint("source IN ('system', 'upload', 'generated', 'conversation', 'curator', 'import')", name='ck_ak_source'),
    sa.CheckConstraint("status IN ('active', 'retired')", name='ck_ak_status'),
    sa.CheckConstraint('quality_score >= 0 AND quality_score <= 1', name='ck_ak_quality'),
    sa.ForeignKeyConstraint(['owner_id'], ['teachers.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_ak_embedding', 'agent_knowledge', ['embedding'], unique=False, postgresql_using='hnsw', postgresql_with={'m': 16, 'ef_construction': 64}, postgresql_ops={'embedding': 'vector_cosine_ops'})
    op.create_index('ix_ak_external', 'agent_knowledge', ['external_id'], unique=False)
    op.create_index('ix_ak_fts', 'agent_knowledge', ['fts'], unique=False, postgresql_using='gin')
    op.create_index('ix_ak_map', 'agent_knowledge', ['agent_type', 'fach', 'scope_type', 'scope_id', 'knowledge_type', 'status'], unique=False)
    op.create_index('ix_ak_owner', 'agent_knowledge', ['owner_id'], unique=False)
    op.create_table('conversations',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('state', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('history', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'::jsonb"), nullable=False),
    sa.Column('revision', sa.Integer(), server_default='1', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_conv_teacher', 'conversations', ['teacher_id', 'updated_at'], unique=False)
    op.create_table('curriculum_chunks',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('scope_type', sa.String(length=10), server_default='global', nullable=False),
    sa.Column('scope_id', sa.UUID(), nullable=True),
    sa.Column('owner_id', sa.UUID(), nullable=True),
    sa.Column('bundesland', sa.String(length=60), nullable=False),
    sa.Column('schulform', sa.String(length=60), nullable=False),
    sa.Column('fach', sa.String(length=40), nullable=False),
    sa.Column('klassenstufen', postgresql.ARRAY(sa.Integer()), nullable=False),
    sa.Column('themenfeld', sa.String(length=200), nullable=True),
    sa.Column('thema', sa.String(length=200), nullable=False),
    sa.Column('kompetenz', sa.Text(), nullable=False),
    sa.Column('quelle', sa.Text(), nullable=False),
    sa.Column('abschnitt', sa.Text(), nullable=True),
    sa.Column('external_id', sa.String(length=200), nullable=True),
    sa.Column('embedding', pgvector.sqlalchemy.vector.VECTOR(dim=384), nullable=True),
    sa.Column('embedding_model', sa.String(length=120), nullable=True),
    sa.Column('fts', postgresql.TSVECTOR(), sa.Computed("setweight(to_tsvector('german', coalesce(themenfeld, '') || ' ' || coalesce(thema, '')), 'A') || setweight(to_tsvector('german', coalesce(kompetenz, '')), 'B')", persisted=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("(scope_type = 'global') = (scope_id IS NULL)", name='ck_cc_scope_id'),
    sa.CheckConstraint("scope_type IN ('teacher', 'class', 'school', 'global')", name='ck_cc_scope_type'),
    sa.ForeignKeyConstraint(['owner_id'], ['teachers.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_cc_embedding', 'curriculum_chunks', ['embedding'], unique=False, postgresql_using='hnsw', postgresql_with={'m': 16, 'ef_construction': 64}, postgresql_ops={'embedding': 'vector_cosine_ops'})
    op.create_index('ix_cc_fach', 'curriculum_chunks', ['fach', 'scope_type', 'scope_id'], unique=False)
    op.create_index('ix_cc_fts', 'curriculum_chunks', ['fts'], unique=False, postgresql_using='gin')
    op.create_index(op.f('ix_curriculum_chunks_external_id'), 'curriculum_chunks', ['external_id'], unique=False)
    op.create_table('knowledge_changes',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('knowledge_id', sa.UUID(), nullable=False),
    sa.Column('actor_id', sa.UUID(), nullable=True),
    sa.Column('action', sa.String(length=30), nullable=False),
    sa.Column('before', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('after', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['actor_id'], ['teachers.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_knowledge_changes_knowledge_id'), 'knowledge_changes', ['knowledge_id'], unique=False)
    op.create_table('llm_calls',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=True),
    sa.Column('conversation_id', sa.UUID(), nullable=True),
    sa.Column('eval_run_id', sa.UUID(), nullable=True),
    sa.Column('request_id', sa.String(length=64), nullable=True),
    sa.Column('role', sa.String(length=40), nullable=False),
    sa.Column('model', sa.String(length=120), nullable=False),
    sa.Column('input_tokens', sa.Integer(), nullable=False),
    sa.Column('output_tokens', sa.Integer(), nullable=False),
    sa.Column('tokens_estimated', sa.Boolean(), nullable=False),
    sa.Column('cost_usd', sa.Numeric(precision=12, scale=6), nullable=False),
    sa.Column('latency_ms', sa.Integer(), nullable=False),
    sa.Column('outcome', sa.String(length=30), nullable=False),
    sa.Column('detail', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_llm_calls_teacher_id'), 'llm_calls', ['teacher_id'], unique=False)
    op.create_index('ix_llm_conv', 'llm_calls', ['conversation_id', 'created_at'], unique=False)
    op.create_index('ix_llm_run', 'llm_calls', ['eval_run_id'], unique=False)
    op.create_table('prompt_versions',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('agent_name', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('is_active', sa.Boolean(), server_default='false', nullable=False),
    sa.Column('created_by', sa.UUID(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['teachers.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('agent_name', 'version', name='uq_prompt_version')
    )
    op.create_index('uq_prompt_active', 'prompt_versions', ['agent_name'], unique=True, postgresql_where=sa.text('is_active'))
    op.create_table('teacher_classes',
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('class_id', sa.UUID(), nullable=False),
    sa.Column('fach', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['class_id'], ['classes.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('teacher_id', 'class_id', 'fach')
    )
    op.create_table('user_memories',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('fach', sa.String(length=40), nullable=True),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=20), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_user_memories_teacher_id'), 'user_memories', ['teacher_id'], unique=False)
    op.create_table('agent_sessions',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('conversation_id', sa.UUID(), nullable=True),
    sa.Column('agent_type', sa.String(length=40), nullable=False),
    sa.Column('message_history', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('request', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('deps', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('question', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('status', sa.String(length=12), server_default='waiting', nullable=False),
    sa.Column('clarification_count', sa.Integer(), server_default='0', nullable=False),
    sa.Column('schema_version', sa.Integer(), server_default='1', nullable=False),
    sa.Column('last_answer_hash', sa.String(length=64), nullable=True),
    sa.Column('result_material_id', sa.UUID(), nullable=True),
    sa.Column('revision', sa.Integer(), server_default='1', nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("status IN ('waiting', 'running', 'completed', 'expired', 'failed')", name='ck_as_status'),
    sa.ForeignKeyConstraint(['conversation_id'], ['conversations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_as_expiry', 'agent_sessions', ['status', 'expires_at'], unique=False)
    op.create_index('ix_as_teacher_status', 'agent_sessions', ['teacher_id', 'status'], unique=False)
    op.create_table('conversation_messages',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('conversation_id', sa.UUID(), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('meta', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['conversation_id'], ['conversations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_cm_conv', 'conversation_messages', ['conversation_id', 'id'], unique=False)
    op.create_table('eval_runs',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('suite', sa.String(length=120), nullable=False),
    sa.Column('agent_name', sa.String(length=40), nullable=False),
    sa.Column('prompt_version_id', sa.UUID(), nullable=True),
    sa.Column('model', sa.String(length=120), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('summary', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('cases', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'::jsonb"), nullable=False),
    sa.Column('created_by', sa.UUID(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['created_by'], ['teachers.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['prompt_version_id'], ['prompt_versions.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('generated_materials',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('conversation_id', sa.UUID(), nullable=True),
    sa.Column('material_type', sa.String(length=20), nullable=False),
    sa.Column('fach', sa.String(length=40), nullable=False),
    sa.Column('klassenstufe', sa.Integer(), nullable=True),
    sa.Column('thema', sa.String(length=200), nullable=True),
    sa.Column('titel', sa.String(length=300), nullable=False),
    sa.Column('content', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('request', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('validation', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'::jsonb"), nullable=False),
    sa.Column('model_name', sa.String(length=120), nullable=True),
    sa.Column('version', sa.Integer(), server_default='1', nullable=False),
    sa.Column('parent_id', sa.UUID(), nullable=True),
    sa.Column('rating', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint('rating IS NULL OR rating BETWEEN 1 AND 5', name='ck_gm_rating'),
    sa.ForeignKeyConstraint(['conversation_id'], ['conversations.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['parent_id'], ['generated_materials.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_gm_teacher', 'generated_materials', ['teacher_id', 'created_at'], unique=False)
    op.create_table('session_logs',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('conversation_id', sa.UUID(), nullable=True),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['conversation_id'], ['conversations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_session_logs_teacher_id'), 'session_logs', ['teacher_id'], unique=False)
    op.create_table('uploads',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('conversation_id', sa.UUID(), nullable=True),
    sa.Column('filename', sa.String(length=300), nullable=False),
    sa.Column('mime', sa.String(length=120), nullable=False),
    sa.Column('size_bytes', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('kind', sa.String(length=30), nullable=False),
    sa.Column('extracted_text', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['conversation_id'], ['conversations.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_uploads_teacher_id'), 'uploads', ['teacher_id'], unique=False)
    op.create_table('material_files',
    sa.Column('id', sa.UUID(), server_default=sa.text('gen_random_uuid()'), nullable=False),
    sa.Column('material_id', sa.UUID(), nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('kind', sa.String(length=30), nullable=False),
    sa.Column('filename', sa.String(length=300), nullable=False),
    sa.Column('mime', sa.String(length=120), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['material_id'], ['generated_materials.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_material_files_material_id'), 'material_files', ['material_id'], unique=False)
    op.create_table('ratings',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('teacher_id', sa.UUID(), nullable=False),
    sa.Column('material_id', sa.UUID(), nullable=False),
    sa.Column('task_ref', sa.String(length=20), nullable=True),
    sa.Column('stars', sa.Integer(), nullable=False),
    sa.Column('comment', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint('stars BETWEEN 1 AND 5', name='ck_ratings_stars'),
    sa.ForeignKeyConstraint(['material_id'], ['generated_materials.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_ratings_material_id'), 'ratings', ['material_id'], unique=False)
    op.create_index(op.f('ix_ratings_teacher_id'), 'ratings', ['teacher_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_ratings_teacher_id'), table_name='ratings')
    op.drop_index(op.f('ix_ratings_material_id'), table_name='ratings')
    op.drop_table('ratings')
    op.drop_index(op.f('ix_material_files_material_id'), table_name='material_files')
    op.drop_table('material_files')
    op.drop_index(op.f('ix_uploads_teacher_id'), table_name='uploads')
    op.drop_table('uploads')
    op.drop_index(op.f('ix_session_logs_teacher_id'), table_name='session_logs')
    op.drop_table('session_logs')
    op.drop_index('ix_gm_teacher', table_name='generated_materials')
    op.drop_table('generated_materials')
    op.drop_table('eval_runs')
    op.drop_index('ix_cm_conv', table_name='conversation_messages')
    op.drop_table('conversation_messages')
    op.drop_index('ix_as_teacher_status', table_name='agent_sessions')
    op.drop_index('ix_as_expiry', table_name='agent_sessions')
    op.drop_table('agent_sessions')
    op.drop_index(op.f('ix_user_memories_teacher_id'), table_name='user_memories')
    op.drop_table('user_memories')
    op.drop_table('teacher_classes')
    op.drop_index('uq_prompt_active', table_name='prompt_versions', postgresql_where=sa.text('is_active'))
    op.drop_table('prompt_versions')
    op.drop_index('ix_llm_run', table_name='llm_calls')
    op.drop_index('ix_llm_conv', table_name='llm_calls')
    op.drop_index(op.f('ix_llm_calls_teacher_id'), table_name='llm_calls')
    op.drop_table('llm_calls')
    op.drop_index(op.f('ix_knowledge_changes_knowledge_id'), table_name='knowledge_changes')
    op.drop_table('knowledge_changes')
    op.drop_index(op.f('ix_curriculum_chunks_external_id'), table_name='curriculum_chunks')
    op.drop_index('ix_cc_fts', table_name='curriculum_chunks', postgresql_using='gin')
    op.drop_index('ix_cc_fach', table_name='curriculum_chunks')
    op.drop_index('ix_cc_embedding', table_name='curriculum_chunks', postgresql_using='hnsw', postgresql_with={'m': 16, 'ef_construction': 64}, postgresql_ops={'embedding': 'vector_cosine_ops'})
    op.drop_table('curriculum_chunks')
    op.drop_index('ix_conv_teacher', table_name='conversations')
    op.drop_table('conversations')
    op.drop_index('ix_ak_owner', table_name='agent_knowledge')
    op.drop_index('ix_ak_map', table_name='agent_knowledge')
    op.drop_index('ix_ak_fts', table_name='agent_knowledge', postgresql_using='gin')
    op.drop_index('ix_ak_external', table_name='agent_knowledge')
    op.drop_index('ix_ak_embedding', table_name='agent_knowledge', postgresql_using='hnsw', postgresql_with={'m': 16, 'ef_construction': 64}, postgresql_ops={'embedding': 'vector_cosine_ops'})
    op.drop_table('agent_knowledge')
    op.drop_index(op.f('ix_teachers_school_id'), table_name='teachers')
    op.drop_table('teachers')
    op.drop_index(op.f('ix_classes_school_id'), table_name='classes')
    op.drop_table('classes')
    op.drop_table('schools')
