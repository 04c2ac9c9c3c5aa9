//! The kinematic tree: links and joints linked by index, checked (unique
//! names, known links, one parent per link, one root, no cycle), ordered
//! parents first, and mimic chains resolved to entries of the joint vector.

use super::error::{RobotError, RobotErrorKind};
use super::model::{Joint, JointSource, Link, Mimic};
use super::urdf::RawRobot;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;

/// The linked tree of a URDF.
pub(crate) struct Tree {
    pub(crate) links: Vec<Link>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) root: usize,
    /// Every joint, each after the joint that moves its parent link.
    pub(crate) order: Vec<usize>,
    /// The joint of each entry of a joint vector: the movable joints that
    /// are not mimics, in the URDF's order.
    pub(crate) dofs: Vec<usize>,
}

/// Links the names of `raw` into a tree.
pub(crate) fn build(raw: &RawRobot, path: &Path) -> Result<Tree, RobotError> {
    let at = |line: usize, kind| RobotError::new(path, Some(line), kind);
    if raw.links.is_empty() {
        return Err(RobotError::new(path, None, RobotErrorKind::NoLinks));
    }
    let link_index = unique_names(
        raw.links.iter().map(|l| (l.name.as_str(), l.line)),
        "link",
        path,
    )?;
    let joint_index = unique_names(
        raw.joints.iter().map(|j| (j.name.as_str(), j.line)),
        "joint",
        path,
    )?;

    let mut links: Vec<Link> = raw
        .links
        .iter()
        .map(|l| Link {
            name: l.name.clone(),
            parent_joint: None,
            collisions: 0..0,
        })
        .collect();
    let mut joints = Vec::with_capacity(raw.joints.len());
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
    for (j, rj) in raw.joints.iter().enumerate() {
        let find = |name: &str| {
            link_index.get(name).copied().ok_or_else(|| {
                at(
                    rj.line,
                    RobotErrorKind::UnknownLink {
                        element: format!("joint {:?}", rj.name),
                        link: name.to_string(),
                    },
                )
            })
        };
        let (parent, child) = (find(&rj.parent)?, find(&rj.child)?);
        if let Some(first) = links[child].parent_joint {
            return Err(at(
                rj.line,
                RobotErrorKind::SeveralParents {
                    link: rj.child.clone(),
                    first: raw.joints[first].name.clone(),
                    second: rj.name.clone(),
                },
            ));
        }
        links[child].parent_joint = Some(j);
        children[parent].push(j);
        joints.push(Joint {
            name: rj.name.clone(),
            kind: rj.kind,
            parent,
            child,
            origin: rj.origin,
            axis: rj.axis,
            limits: rj.limits,
            mimic: None,
            source: JointSource::None,
        });
    }

    let roots: Vec<usize> = (0..links.len())
        .filter(|&l| links[l].parent_joint.is_none())
        .collect();
    if roots.len() > 1 {
        return Err(at(
            raw.links[roots[1]].line,
            RobotErrorKind::SeveralRoots {
                roots: roots.iter().map(|&l| links[l].name.clone()).collect(),
            },
        ));
    }
    // With no root every link has a parent, so following parents from
    // link 0 must come round to a link already seen.
    let root = roots.first().copied();
    let order = parents_first(root, &children, &joints);
    if order.len() < joints.len() || root.is_none() {
        let mut reached = vec![false; links.len()];
        if let Some(root) = root {
            reached[root] = true;
        }
        for &j in &order {
            reached[joints[j].child] = true;
        }
        let start = (0..links.len()).find(|&l| !reached[l]).unwrap_or(0);
        let cycle = cycle_above(start, &links, &joints);
        let line = raw.joints[links[cycle[0]].parent_joint.unwrap_or(0)].line;
        return Err(at(
            line,
            RobotErrorKind::Cycle {
                links: cycle.iter().map(|&l| links[l].name.clone()).collect(),
            },
        ));
    }
    let root = root.unwrap_or(0);

    let mut dofs = Vec::new();
    for (j, joint) in joints.iter_mut().enumerate() {
        if joint.kind.is_movable() && raw.joints[j].mimic.is_none() {
            joint.source = JointSource::Dof(dofs.len());
            dofs.push(j);
        }
    }
    resolve_mimics(raw, &joint_index, &mut joints, path)?;
    Ok(Tree {
        links,
        joints,
        root,
        order,
        dofs,
    })
}

/// The index of each name; a repeated name is an error at its second line.
fn unique_names<'a>(
    names: impl Iterator<Item = (&'a str, usize)>,
    what: &'static str,
    path: &Path,
) -> Result<HashMap<&'a str, usize>, RobotError> {
    let mut index = HashMap::new();
    for (i, (name, line)) in names.enumerate() {
        match index.entry(name) {
            Entry::Occupied(_) => {
                return Err(RobotError::new(
                    path,
                    Some(line),
                    RobotErrorKind::DuplicateName {
                        what,
                        name: name.to_string(),
                    },
                ));
            }
            Entry::Vacant(v) => {
                v.insert(i);
            }
        }
    }
    Ok(index)
}

/// The joints reachable from `root`, breadth first (each after the joint
/// moving its parent link), children in the URDF's order.
fn parents_first(root: Option<usize>, children: &[Vec<usize>], joints: &[Joint]) -> Vec<usize> {
    let mut order = Vec::with_capacity(joints.len());
    let Some(root) = root else {
        return order;
    };
    order.extend(&children[root]);
    let mut next = 0;
    while next < order.len() {
        let child = joints[order[next]].child;
        order.extend(&children[child]);
        next += 1;
    }
    order
}

/// The cycle met by following parent links up from `start` (which every
/// link has, off the root's tree), each link the parent of the next.
fn cycle_above(start: usize, links: &[Link], joints: &[Joint]) -> Vec<usize> {
    let mut seen_at = vec![usize::MAX; links.len()];
    let mut walk = Vec::new();
    let mut l = start;
    while seen_at[l] == usize::MAX {
        seen_at[l] = walk.len();
        walk.push(l);
        match links[l].parent_joint {
            Some(j) => l = joints[j].parent,
            None => break,
        }
    }
    let mut cycle = walk.split_off(seen_at[l].min(walk.len()));
    cycle.reverse();
    cycle
}

/// Links each mimic joint to its leader and resolves the chain of leaders
/// to an entry of the joint vector: `v = m1 (m2 v2 + o2) + o1`.
fn resolve_mimics(
    raw: &RawRobot,
    joint_index: &HashMap<&str, usize>,
    joints: &mut [Joint],
    path: &Path,
) -> Result<(), RobotError> {
    for (j, rj) in raw.joints.iter().enumerate() {
        let Some(m) = &rj.mimic else { continue };
        let leader = *joint_index.get(m.leader.as_str()).ok_or_else(|| {
            RobotError::new(
                path,
                Some(rj.line),
                RobotErrorKind::UnknownJoint {
                    element: format!("joint {:?} <mimic>", rj.name),
                    joint: m.leader.clone(),
                },
            )
        })?;
        joints[j].mimic = Some(Mimic {
            leader,
            multiplier: m.multiplier,
            offset: m.offset,
        });
    }
    for j in 0..joints.len() {
        if joints[j].mimic.is_none() {
            continue;
        }
        let (mut multiplier, mut offset) = (1.0, 0.0);
        let mut chain = vec![j];
        let mut k = j;
        while let Some(m) = joints[k].mimic {
            // v_k = m.multiplier * v_leader + m.offset, composed into
            // v_j = multiplier * v_k + offset.
            offset += multiplier * m.offset;
            multiplier *= m.multiplier;
            let leader = &joints[m.leader];
            if !leader.kind.is_movable() {
                return Err(RobotError::new(
                    path,
                    Some(raw.joints[k].line),
                    RobotErrorKind::MimicOfFixed {
                        joint: joints[k].name.clone(),
                        leader: leader.name.clone(),
                    },
                ));
            }
            if let Some(start) = chain.iter().position(|&c| c == m.leader) {
                return Err(RobotError::new(
                    path,
                    Some(raw.joints[k].line),
                    RobotErrorKind::MimicCycle {
                        joints: chain[start..]
                            .iter()
                            .map(|&c| joints[c].name.clone())
                            .collect(),
                    },
                ));
            }
            chain.push(m.leader);
            k = m.leader;
        }
        let JointSource::Dof(dof) = joints[k].source else {
            unreachable!("a movable joint that is not a mimic is an entry of the joint vector")
        };
        if !(multiplier.is_finite() && offset.is_finite()) {
            return Err(RobotError::new(
                path,
                Some(raw.joints[j].line),
                RobotErrorKind::NonFinite {
                    element: format!("joint {:?} <mimic>", joints[j].name),
                    attribute: "multiplier",
                    value: format!("{multiplier} (the product along its chain of leaders)"),
                },
            ));
        }
        joints[j].source = JointSource::Mimic {
            dof,
            multiplier,
            offset,
        };
    }
    Ok(())
}
